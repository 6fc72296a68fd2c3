//===- Passes.cpp - C API of gpucg's passes and pipelines -----------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpucg-c/Passes.h"

#include "gpucg/InitGpucg.h"

#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"

#include <mutex>

using namespace mlir;
using namespace mlir::gpucg;

// The creation and registration functions that mlir-tblgen generates from
// Passes.td (-gen-pass-capi-impl).
#include "GpucgConversionPasses.capi.cpp.inc"
#include "GpucgEmulationPasses.capi.cpp.inc"
#include "GpucgPasses.capi.cpp.inc"
#include "GpucgPipelinesPasses.capi.cpp.inc"

void mlirGpucgRegisterPasses(void) {
  static std::once_flag once;
  std::call_once(once, [] { registerAllGpucgPasses(); });
}

//===----------------------------------------------------------------------===//
// The list of passes and pipelines
//===----------------------------------------------------------------------===//

namespace {
struct OptionInfo {
  std::string name;
  std::string defaultValue;
  std::string description;
};

struct Entry {
  std::string argument;
  std::string summary;
  std::string anchor;
  MlirGpucgPassEntryKind kind;
  std::vector<OptionInfo> options;
};

struct PassOptionDescription {
  StringRef pass;
  StringRef option;
  StringRef description;
};
} // namespace

/// The creation functions of the passes of both Passes.td files, and the
/// descriptions of their options (GenPassList.cmake writes them from the
/// records of Passes.td).
static MlirPass (*const kPassCreators[])(void) = {
#define GPUCG_CAPI_PASS(create) create,
#define GPUCG_CAPI_PASS_OPTION(pass, option, description)
#include "GpucgCAPIPassList.inc"
#undef GPUCG_CAPI_PASS
#undef GPUCG_CAPI_PASS_OPTION
};

static const PassOptionDescription kPassOptions[] = {
#define GPUCG_CAPI_PASS(create)
#define GPUCG_CAPI_PASS_OPTION(pass, option, description)                      \
  {pass, option, description},
#include "GpucgCAPIPassList.inc"
#undef GPUCG_CAPI_PASS
#undef GPUCG_CAPI_PASS_OPTION
};

/// Splits "{a=1 b={x y} c="s t"}" (how a pass or an options struct prints
/// its options) into `key` -> `value` as written.
static llvm::StringMap<std::string> splitPrintedOptions(StringRef printed) {
  llvm::StringMap<std::string> values;
  printed = printed.drop_front(std::min(printed.find('{'), printed.size()));
  if (!printed.consume_front("{") || !printed.consume_back("}"))
    return values;
  auto addWord = [&](StringRef word) {
    if (word.empty())
      return;
    auto [key, value] = word.split('=');
    values[key] = value.str();
  };
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0, e = printed.size(); i < e; ++i) {
    char c = printed[i];
    if (quote) {
      quote = c == quote ? 0 : quote;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      --depth;
    } else if (c == ' ' && depth == 0) {
      addWord(printed.slice(start, i));
      start = i + 1;
    }
  }
  addWord(printed.drop_front(start));
  return values;
}

static bool byName(const OptionInfo &lhs, const OptionInfo &rhs) {
  return lhs.name < rhs.name;
}

static Entry describePass(MlirPass (*create)(void)) {
  std::unique_ptr<Pass> pass(unwrap(create()));
  Entry entry;
  entry.argument = pass->getArgument().str();
  entry.summary = pass->getDescription().str();
  entry.anchor = pass->getOpName().value_or("").str();
  entry.kind = MlirGpucgPassEntryKindPass;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  pass->printAsTextualPipeline(os);
  llvm::StringMap<std::string> defaults = splitPrintedOptions(printed);
  for (const PassOptionDescription &option : kPassOptions)
    if (option.pass == entry.argument)
      entry.options.push_back({option.option.str(),
                               defaults.lookup(option.option),
                               option.description.str()});
  llvm::sort(entry.options, byName);
  return entry;
}

template <typename Options> static Entry describePipeline(StringRef name) {
  Entry entry;
  entry.argument = name.str();
  if (const PassPipelineInfo *info = PassPipelineInfo::lookup(name))
    entry.summary = info->getPassDescription().str();
  entry.anchor = ModuleOp::getOperationName().str();
  entry.kind = MlirGpucgPassEntryKindPipeline;
  Options options;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  options.print(os);
  llvm::StringMap<std::string> defaults = splitPrintedOptions(printed);
  // PassOptions derives from cl::SubCommand (a protected base, reached by a
  // C-style cast), whose map holds each option with its description.
  const auto &subCommand =
      (const llvm::cl::SubCommand
           &)(static_cast<const mlir::detail::PassOptions &>(options));
  for (auto [name, option] : subCommand.OptionsMap)
    entry.options.push_back(
        {name.str(), defaults.lookup(name), option->HelpStr.str()});
  llvm::sort(entry.options, byName);
  return entry;
}

static std::vector<Entry> buildEntries() {
  mlirGpucgRegisterPasses();
  std::vector<Entry> entries;
  for (MlirPass (*create)(void) : kPassCreators)
    entries.push_back(describePass(create));
  llvm::sort(entries, [](const Entry &lhs, const Entry &rhs) {
    return lhs.argument < rhs.argument;
  });
  // gpucg's named pipelines and their options types (Pipelines.cpp of
  // lib/Transforms and lib/Conversion), in name order. MLIR's registry does
  // not list its pipelines; test/python/passes.py compares this list with
  // gpucg-opt --help.
  entries.push_back(describePipeline<EmptyPipelineOptions>("gpucg-bufferize"));
  entries.push_back(describePipeline<CompilePipelineOptions>("gpucg-compile"));
  entries.push_back(
      describePipeline<LowerToNVVMPipelineOptions>("gpucg-lower-to-nvvm"));
  entries.push_back(
      describePipeline<TensorCorePipelineOptions>("gpucg-matmul-mma-sync"));
  entries.push_back(
      describePipeline<SimtPipelineOptions>("gpucg-matmul-simt"));
  entries.push_back(
      describePipeline<TensorCorePipelineOptions>("gpucg-matmul-tensorcore"));
  entries.push_back(
      describePipeline<WgmmaPipelineOptions>("gpucg-matmul-wgmma"));
  entries.push_back(describePipeline<SimtPipelineOptions>("gpucg-simt"));
  entries.push_back(describePipeline<TestEmulateOnCpuPipelineOptions>(
      "gpucg-test-emulate-on-cpu"));
  entries.push_back(
      describePipeline<EmptyPipelineOptions>("gpucg-test-lower-to-cpu"));
  entries.push_back(describePipeline<SimtPipelineOptions>("gpucg-vectorize"));
  entries.push_back(
      describePipeline<SimtPipelineOptions>("gpucg-warp-reduction"));
  return entries;
}

static const std::vector<Entry> &getEntries() {
  static const std::vector<Entry> entries = buildEntries();
  return entries;
}

intptr_t mlirGpucgGetNumPassEntries(void) { return getEntries().size(); }

MlirGpucgPassEntry mlirGpucgGetPassEntry(intptr_t pos) {
  const Entry &entry = getEntries()[pos];
  return {wrap(StringRef(entry.argument)), wrap(StringRef(entry.summary)),
          entry.kind, wrap(StringRef(entry.anchor)),
          static_cast<intptr_t>(entry.options.size())};
}

MlirGpucgPassOption mlirGpucgGetPassEntryOption(intptr_t entryPos,
                                                intptr_t optionPos) {
  const OptionInfo &option = getEntries()[entryPos].options[optionPos];
  return {wrap(StringRef(option.name)), wrap(StringRef(option.defaultValue)),
          wrap(StringRef(option.description))};
}

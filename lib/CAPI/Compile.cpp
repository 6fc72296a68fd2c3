//===- Compile.cpp - Compile gpucg kernels from C without MLIR objects ----===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpucg-c/Compile.h"
#include "gpucg-c/Dialects.h"

#include "gpucg/Conversion/ExportKernels.h"
#include "gpucg/InitGpucg.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;

MlirStringRef mlirGpucgCompileStatusGetName(MlirGpucgCompileStatus status) {
  switch (status) {
  case MlirGpucgCompileSuccess:
    return wrap(StringRef("success"));
  case MlirGpucgCompileInvalidArgument:
    return wrap(StringRef("invalid argument"));
  case MlirGpucgCompileParseError:
    return wrap(StringRef("parse error"));
  case MlirGpucgCompilePipelineError:
    return wrap(StringRef("pipeline error"));
  case MlirGpucgCompilePassFailure:
    return wrap(StringRef("pass failure"));
  case MlirGpucgCompileExportError:
    return wrap(StringRef("export error"));
  }
  return wrap(StringRef("unknown status"));
}

MlirGpucgCompileOptions mlirGpucgCompileOptionsGetDefault(void) {
  MlirGpucgCompileOptions options;
  options.pipeline = wrap(StringRef());
  options.chip = wrap(StringRef());
  options.format = wrap(StringRef());
  options.features = wrap(StringRef());
  options.optLevel = 3;
  options.barePointers = true;
  options.printGenericForm = false;
  options.verifyEachPass = true;
  options.deterministicReductions = false;
  options.report = false;
  options.f32Precision = mlirStringRefCreate(nullptr, 0);
  options.wgmmaPersistent = false;
  options.wgmmaPersistentWorkgroups = 0;
  options.wgmmaStagedStore = false;
  options.workgroupGroupSize = 0;
  options.nvvmFloat8 = false;
  options.wgmmaClusterM = 1;
  options.wgmmaClusterN = 1;
  options.splitK = 0;
  options.wgmmaStreamK = false;
  return options;
}

namespace {
/// One compilation: its context, the callbacks that receive its results and
/// its diagnostics.
class Compilation {
public:
  Compilation(const MlirGpucgCompileOptions &options,
              const MlirGpucgCompileCallbacks &callbacks)
      : options(options), callbacks(callbacks), context(makeRegistry()),
        handler(&context, [this](Diagnostic &diag) {
          report(diag);
          return success();
        }) {
    // A C caller wants the message, not a dump of the op in a note.
    context.printOpOnDiagnostic(false);
  }

  MlirGpucgCompileStatus run(StringRef source, StringRef sourceName);

private:
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    mlirGpucgRegisterAllDialects(wrap(&registry));
    return registry;
  }

  void report(MlirDiagnosticSeverity severity, Location loc, StringRef message);
  void report(Diagnostic &diag);
  /// Reports an error without a location.
  void error(const Twine &message) {
    std::string text = message.str();
    report(MlirDiagnosticError, UnknownLoc::get(&context),
           StringRef(text).rtrim());
  }

  LogicalResult buildPipeline(PassManager &pm, MlirGpucgCompileStatus &status);
  LogicalResult exportKernels(ModuleOp module);

  const MlirGpucgCompileOptions &options;
  const MlirGpucgCompileCallbacks &callbacks;
  MLIRContext context;
  ScopedDiagnosticHandler handler;
};
} // namespace

/// "file":line:col for a location that has one, else MLIR's spelling of the
/// location without `loc(...)`, else "".
static std::string describeLocation(Location loc) {
  if (isa<UnknownLoc>(loc))
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = loc->findInstanceOf<FileLineColLoc>()) {
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
    return text;
  }
  loc.print(os);
  StringRef inner(text);
  if (inner.consume_front("loc(") && inner.consume_back(")"))
    return inner.str();
  return text;
}

void Compilation::report(MlirDiagnosticSeverity severity, Location loc,
                         StringRef message) {
  if (!callbacks.onDiagnostic)
    return;
  std::string location = describeLocation(loc);
  callbacks.onDiagnostic(severity, wrap(StringRef(location)), wrap(message),
                         callbacks.userData);
}

static MlirDiagnosticSeverity wrapSeverity(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Note:
    return MlirDiagnosticNote;
  case DiagnosticSeverity::Warning:
    return MlirDiagnosticWarning;
  case DiagnosticSeverity::Error:
    return MlirDiagnosticError;
  case DiagnosticSeverity::Remark:
    return MlirDiagnosticRemark;
  }
  return MlirDiagnosticError;
}

void Compilation::report(Diagnostic &diag) {
  report(wrapSeverity(diag.getSeverity()), diag.getLocation(), diag.str());
  for (Diagnostic &note : diag.getNotes())
    report(MlirDiagnosticNote, note.getLocation(), note.str());
}

/// gpucg-compile's format option for the C API's spellings.
static std::optional<gpu::CompilationTarget> parseFormat(StringRef format) {
  return llvm::StringSwitch<std::optional<gpu::CompilationTarget>>(format)
      .Cases({"isa", "ptx"}, gpu::CompilationTarget::Assembly)
      .Cases({"", "bin", "cubin"}, gpu::CompilationTarget::Binary)
      .Case("fatbin", gpu::CompilationTarget::Fatbin)
      .Default(std::nullopt);
}

/// gpucg-compile's f32-precision option for the C API's spellings.
static std::optional<gpucg::F32Precision>
parseF32Precision(StringRef precision) {
  return llvm::StringSwitch<std::optional<gpucg::F32Precision>>(precision)
      .Cases({"", "tf32"}, gpucg::F32Precision::Tf32)
      .Case("ieee", gpucg::F32Precision::Ieee)
      .Default(std::nullopt);
}

LogicalResult Compilation::buildPipeline(PassManager &pm,
                                         MlirGpucgCompileStatus &status) {
  StringRef pipeline = unwrap(options.pipeline).trim();
  if (!pipeline.empty()) {
    status = MlirGpucgCompilePipelineError;
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    // An anchored pipeline replaces the pass manager's; any other text lists
    // the passes to nest in the module, as in builtin.module(...).
    if (pipeline.starts_with("builtin.module(") ||
        pipeline.starts_with("any(")) {
      FailureOr<OpPassManager> parsed =
          parsePassPipeline(pipeline, errorStream);
      if (failed(parsed)) {
        error(errors);
        return failure();
      }
      static_cast<OpPassManager &>(pm) = std::move(*parsed);
      return success();
    }
    if (failed(parsePassPipeline(pipeline, pm, errorStream))) {
      error(errors);
      return failure();
    }
    return success();
  }

  status = MlirGpucgCompileInvalidArgument;
  std::optional<gpu::CompilationTarget> format =
      parseFormat(unwrap(options.format));
  if (!format) {
    error("unknown format '" + unwrap(options.format) +
          "': expected isa, ptx, bin, cubin or fatbin");
    return failure();
  }
  std::optional<gpucg::F32Precision> f32Precision =
      parseF32Precision(unwrap(options.f32Precision));
  if (!f32Precision) {
    error("unknown f32Precision '" + unwrap(options.f32Precision) +
          "': expected tf32 or ieee");
    return failure();
  }
  gpucg::CompilePipelineOptions compile;
  compile.chip = unwrap(options.chip).str();
  compile.features = unwrap(options.features).str();
  compile.format = *format;
  compile.optLevel = options.optLevel;
  compile.barePointers = options.barePointers;
  compile.deterministicReductions = options.deterministicReductions;
  compile.report = options.report;
  compile.f32Precision = *f32Precision;
  compile.wgmmaLaunch.persistent = options.wgmmaPersistent;
  compile.wgmmaLaunch.persistentWorkgroups = options.wgmmaPersistentWorkgroups;
  compile.wgmmaLaunch.stagedStore = options.wgmmaStagedStore;
  compile.wgmmaLaunch.streamK = options.wgmmaStreamK;
  compile.workgroupOrder.workgroupGroupSize = options.workgroupGroupSize;
  compile.workgroupOrder.splitK = options.splitK;
  compile.nvvmFloat8 = options.nvvmFloat8;
  compile.wgmmaLaunch.clusterM = options.wgmmaClusterM;
  compile.wgmmaLaunch.clusterN = options.wgmmaClusterN;
  // The checks gpucg-compile's textual form makes before it is built.
  std::string invalid = compile.validate();
  if (!invalid.empty()) {
    error(invalid);
    return failure();
  }
  gpucg::buildCompilePipeline(pm, compile);
  return success();
}

LogicalResult Compilation::exportKernels(ModuleOp module) {
  // Only a module whose kernels were serialized has something to export; a
  // pipeline that stops earlier (say, gpucg-matmul-mma-sync) exports none.
  bool hasBinary =
      module.walk([](gpu::BinaryOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (!hasBinary)
    return success();
  FailureOr<std::vector<gpucg::KernelExport>> kernels =
      gpucg::describeKernels(module, options.barePointers);
  if (failed(kernels))
    return failure();
  if (!callbacks.onKernel)
    return success();
  for (const gpucg::KernelExport &kernel : *kernels) {
    MlirGpucgCompiledKernel compiled = {wrap(StringRef(kernel.kernelName)),
                                        wrap(StringRef(kernel.binaryFileName)),
                                        wrap(kernel.binary),
                                        wrap(StringRef(kernel.abi)),
                                        /*registers=*/-1,
                                        /*stackFrameBytes=*/-1,
                                        /*staticSharedBytes=*/-1,
                                        /*workgroupsPerSm=*/-1};
    if (kernel.resources) {
      compiled.registers = kernel.resources->registers;
      compiled.stackFrameBytes = kernel.resources->stackFrameBytes;
      compiled.staticSharedBytes = kernel.resources->staticSharedBytes;
    }
    if (kernel.occupancy)
      compiled.workgroupsPerSm = kernel.occupancy->workgroupsPerSm;
    callbacks.onKernel(&compiled, callbacks.userData);
  }
  return success();
}

MlirGpucgCompileStatus Compilation::run(StringRef source,
                                        StringRef sourceName) {
  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, config, sourceName);
  if (!module)
    return MlirGpucgCompileParseError;

  PassManager pm(&context, ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  MlirGpucgCompileStatus status = MlirGpucgCompileSuccess;
  if (failed(buildPipeline(pm, status)))
    return status;
  pm.enableVerifier(options.verifyEachPass);
  if (failed(pm.run(*module)))
    return MlirGpucgCompilePassFailure;
  if (failed(exportKernels(*module)))
    return MlirGpucgCompileExportError;

  if (callbacks.onModule) {
    std::string text;
    llvm::raw_string_ostream os(text);
    OpPrintingFlags flags;
    if (options.printGenericForm)
      flags.printGenericOpForm();
    module->print(os, flags);
    callbacks.onModule(wrap(StringRef(text)), callbacks.userData);
  }
  return MlirGpucgCompileSuccess;
}

MlirGpucgCompileStatus
mlirGpucgCompile(MlirStringRef source, MlirStringRef sourceName,
                 const MlirGpucgCompileOptions *options,
                 const MlirGpucgCompileCallbacks *callbacks) {
  static const MlirGpucgCompileCallbacks noCallbacks = {};
  const MlirGpucgCompileCallbacks &actualCallbacks =
      callbacks ? *callbacks : noCallbacks;
  if (!options || (!source.data && source.length)) {
    if (actualCallbacks.onDiagnostic)
      actualCallbacks.onDiagnostic(
          MlirDiagnosticError, wrap(StringRef()),
          wrap(StringRef(!options ? "mlirGpucgCompile: null options"
                                  : "mlirGpucgCompile: null source")),
          actualCallbacks.userData);
    return MlirGpucgCompileInvalidArgument;
  }
  mlirGpucgRegisterAllPasses();
  StringRef name = unwrap(sourceName);
  Compilation compilation(*options, actualCallbacks);
  return compilation.run(unwrap(source), name.empty() ? "<source>" : name);
}

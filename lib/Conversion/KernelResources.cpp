//===- KernelResources.cpp - What ptxas gave a kernel, and its occupancy --===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpucg/Conversion/KernelResources.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::gpucg;

// The `.nv.info` attributes read here (their numbers as cuobjdump and the
// CUDA binary utilities know them).
static constexpr uint8_t kAttrFrameSize = 0x11; // EIATTR_FRAME_SIZE
static constexpr uint8_t kAttrRegCount = 0x2f;  // EIATTR_REGCOUNT
// Record formats: a header of one format byte and one attribute byte, then
// a 16-bit value (kFormatNoValue, kFormatByte, kFormatHalf) or a 16-bit
// size and that many bytes (kFormatSized).
static constexpr uint8_t kFormatNoValue = 0x01;
static constexpr uint8_t kFormatByte = 0x02;
static constexpr uint8_t kFormatHalf = 0x03;
static constexpr uint8_t kFormatSized = 0x04;
// The workgroup memory the system reserves in each workgroup on sm_80 and
// newer. An sm_90 cubin that uses it (the symbol below) counts it in the
// kernel's `.nv.shared.<kernel>` section, where the CUDA driver's
// CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES does not: on an H100 (2026-11-27) the
// driver gave 1, 32768 and 1025 bytes for sections of 1025, 33792 and 2049.
static constexpr int64_t kReservedSharedBytes = 1024;
static constexpr llvm::StringLiteral kReservedSharedSymbol =
    ".nv.reservedSmem.offset0";

std::optional<KernelResources>
mlir::gpucg::readCubinResources(StringRef cubin, StringRef kernelName,
                                std::string &error) {
  using ELF = llvm::object::ELF64LE;
  auto fail = [&](const Twine &message) -> std::optional<KernelResources> {
    error = message.str();
    return std::nullopt;
  };
  llvm::Expected<llvm::object::ELFFile<ELF>> file =
      llvm::object::ELFFile<ELF>::create(cubin);
  if (!file)
    return fail("not an ELF cubin: " + llvm::toString(file.takeError()));
  auto sections = file->sections();
  if (!sections)
    return fail("unreadable section headers: " +
                llvm::toString(sections.takeError()));

  // The kernel's symbol index, which the .nv.info attributes name.
  std::optional<uint32_t> symbolIndex;
  bool usesReservedShared = false;
  for (const ELF::Shdr &section : *sections) {
    if (section.sh_type != llvm::ELF::SHT_SYMTAB)
      continue;
    auto strings = file->getStringTableForSymtab(section);
    auto symbols = file->symbols(&section);
    if (!strings || !symbols) {
      if (!strings)
        llvm::consumeError(strings.takeError());
      if (!symbols)
        llvm::consumeError(symbols.takeError());
      return fail("unreadable symbol table");
    }
    for (auto [index, symbol] : llvm::enumerate(*symbols)) {
      auto name = symbol.getName(*strings);
      if (!name) {
        llvm::consumeError(name.takeError());
        continue;
      }
      if (*name == kernelName)
        symbolIndex = index;
      if (*name == kReservedSharedSymbol)
        usesReservedShared = true;
    }
  }
  if (!symbolIndex)
    return fail("no symbol '" + kernelName + "'");

  KernelResources resources;
  bool sawRegisters = false;
  std::string sharedName = (".nv.shared." + kernelName).str();
  for (const ELF::Shdr &section : *sections) {
    auto name = file->getSectionName(section);
    if (!name) {
      llvm::consumeError(name.takeError());
      continue;
    }
    if (*name == sharedName) {
      resources.staticSharedBytes = section.sh_size;
      continue;
    }
    if (*name != ".nv.info")
      continue;
    auto contents = file->getSectionContents(section);
    if (!contents) {
      llvm::consumeError(contents.takeError());
      return fail("unreadable .nv.info");
    }
    ArrayRef<uint8_t> bytes = *contents;
    size_t pos = 0;
    while (pos + 4 <= bytes.size()) {
      uint8_t format = bytes[pos], attribute = bytes[pos + 1];
      uint16_t value = llvm::support::endian::read16le(bytes.data() + pos + 2);
      if (format == kFormatNoValue || format == kFormatByte ||
          format == kFormatHalf) {
        pos += 4;
        continue;
      }
      if (format != kFormatSized)
        return fail("unknown .nv.info record format " + Twine(format) +
                    " at offset " + Twine(pos));
      if (pos + 4 + value > bytes.size())
        return fail(".nv.info record at offset " + Twine(pos) +
                    " runs past the section");
      // (symbol index, value) pairs of 32-bit words.
      if ((attribute == kAttrRegCount || attribute == kAttrFrameSize) &&
          value == 8 &&
          llvm::support::endian::read32le(bytes.data() + pos + 4) ==
              *symbolIndex) {
        uint32_t number =
            llvm::support::endian::read32le(bytes.data() + pos + 8);
        if (attribute == kAttrRegCount) {
          resources.registers = number;
          sawRegisters = true;
        } else {
          resources.stackFrameBytes = number;
        }
      }
      pos += 4 + value;
    }
  }
  if (!sawRegisters)
    return fail("no register count (EIATTR_REGCOUNT) for '" + kernelName + "'");
  // What the kernel itself declares, as the driver reports it; the reserve
  // is counted once per workgroup by computeOccupancy.
  if (usesReservedShared)
    resources.staticSharedBytes = std::max<int64_t>(
        0, resources.staticSharedBytes - kReservedSharedBytes);
  return resources;
}

namespace {
/// An SM's limits that #gpucg.target does not carry (CUDA C Programming
/// Guide, "Technical Specifications per Compute Capability").
struct SmLimits {
  StringRef chip;
  int64_t maxThreads;
  int64_t maxWorkgroups;
  /// Workgroup memory per SM, bytes.
  int64_t sharedBytes;
  /// Workgroup memory the system reserves per resident workgroup.
  int64_t reservedSharedPerWorkgroup;
};
} // namespace

static const SmLimits kSmLimits[] = {
    {"sm_75", 1024, 16, 65536, 0},      {"sm_80", 2048, 32, 167936, 1024},
    {"sm_86", 1536, 16, 102400, 1024},  {"sm_87", 1536, 16, 167936, 1024},
    {"sm_89", 1536, 24, 102400, 1024},  {"sm_90", 2048, 32, 233472, 1024},
    {"sm_90a", 2048, 32, 233472, 1024},
};

// Registers are allocated per warp in units of 256 (8 per thread).
static constexpr int64_t kRegisterAllocationUnit = 256;
// Every chip above has 64 K registers per SM.
static constexpr int64_t kRegistersPerSm = 65536;

std::optional<Occupancy>
mlir::gpucg::computeOccupancy(TargetAttr target,
                              const KernelResources &resources, int64_t threads,
                              int64_t dynamicSharedBytes) {
  const SmLimits *limits = llvm::find_if(
      kSmLimits, [&](const SmLimits &l) { return l.chip == target.getChip(); });
  if (limits == std::end(kSmLimits) || threads <= 0)
    return std::nullopt;
  int64_t warpSize = target.getWarpSize();
  int64_t warps = llvm::divideCeil(threads, warpSize);
  Occupancy occupancy;
  occupancy.maxWarpsPerSm = limits->maxThreads / warpSize;

  auto consider = [&](int64_t workgroups, StringRef what) {
    if (occupancy.limitedBy.empty() || workgroups < occupancy.workgroupsPerSm) {
      occupancy.workgroupsPerSm = workgroups;
      occupancy.limitedBy = what;
    }
  };
  consider(limits->maxWorkgroups, "workgroups");
  consider(limits->maxThreads / (warps * warpSize), "threads");
  if (resources.registers > 0) {
    int64_t perWarp =
        llvm::alignTo(resources.registers * warpSize, kRegisterAllocationUnit);
    consider((kRegistersPerSm / perWarp) / warps, "registers");
  }
  int64_t shared = resources.staticSharedBytes + dynamicSharedBytes;
  if (shared > 0)
    consider(limits->sharedBytes /
                 (shared + limits->reservedSharedPerWorkgroup),
             "workgroup memory");
  occupancy.warpsPerSm = occupancy.workgroupsPerSm * warps;
  return occupancy;
}

std::string mlir::gpucg::describeResources(StringRef kernelName,
                                           const KernelResources &resources,
                                           std::optional<Occupancy> occupancy,
                                           int64_t threads,
                                           int64_t dynamicSharedBytes) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "kernel " << kernelName << ": " << resources.registers << " registers, "
     << resources.stackFrameBytes << " bytes of stack";
  if (resources.stackFrameBytes > 0)
    os << " (spilled registers)";
  os << ", " << resources.staticSharedBytes << " + " << dynamicSharedBytes
     << " bytes of workgroup memory (static + dynamic)";
  if (occupancy)
    os << ", " << occupancy->workgroupsPerSm << " workgroup"
       << (occupancy->workgroupsPerSm == 1 ? "" : "s") << " of " << threads
       << " threads per SM (" << occupancy->warpsPerSm << " of "
       << occupancy->maxWarpsPerSm << " warps, limited by "
       << occupancy->limitedBy << ")";
  return text;
}

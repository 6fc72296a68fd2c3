//===- GpucgAttrs.cpp - gpucg attributes ----------------------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::gpucg;

#include "gpucg/Dialect/Gpucg/IR/GpucgEnums.cpp.inc"

//===----------------------------------------------------------------------===//
// Parsing helpers
//===----------------------------------------------------------------------===//

/// Parses `[a, b, ...]` into `values`.
static ParseResult parseIntegerList(AsmParser &parser,
                                    SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
    return parser.parseInteger(values.emplace_back());
  });
}

static void printIntegerList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

/// Parses the body of a `<key = value, ...>` attribute. Keys may come in any
/// order; each must be one of `keys` and may appear once. `parseValue` parses
/// the value of the key it is given, after the `=`.
static ParseResult
parseKeyValueBody(AsmParser &parser, StringRef attrName,
                  ArrayRef<StringRef> keys,
                  function_ref<ParseResult(StringRef key)> parseValue) {
  if (parser.parseLess())
    return failure();
  llvm::SmallSet<StringRef, 8> seen;
  auto parseEntry = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key))
      return failure();
    if (!llvm::is_contained(keys, key)) {
      InFlightDiagnostic diag = parser.emitError(loc)
                                << "unknown key '" << key << "' in #gpucg."
                                << attrName << "; expected one of: ";
      llvm::interleaveComma(keys, diag);
      return diag;
    }
    if (!seen.insert(key).second)
      return parser.emitError(loc)
             << "key '" << key << "' appears twice in #gpucg." << attrName;
    if (parser.parseEqual())
      return failure();
    return parseValue(key);
  };
  if (succeeded(parser.parseOptionalGreater()))
    return success();
  if (parser.parseCommaSeparatedList(parseEntry) || parser.parseGreater())
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// LoweringConfigAttr
//===----------------------------------------------------------------------===//

/// Parses `[[a, b], [c, d], ...]` into an ArrayAttr of DenseI64ArrayAttr.
static ParseResult parseTileSizeLevels(AsmParser &parser, ArrayAttr &levels) {
  SmallVector<Attribute> levelAttrs;
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&]() {
        SmallVector<int64_t> sizes;
        if (parseIntegerList(parser, sizes))
          return failure();
        levelAttrs.push_back(parser.getBuilder().getDenseI64ArrayAttr(sizes));
        return success();
      }))
    return failure();
  levels = parser.getBuilder().getArrayAttr(levelAttrs);
  return success();
}

static void printTileSizeLevels(AsmPrinter &printer, ArrayAttr levels) {
  printer << '[';
  llvm::interleaveComma(levels, printer, [&](Attribute level) {
    if (auto sizes = dyn_cast<DenseI64ArrayAttr>(level))
      printIntegerList(printer, sizes.asArrayRef());
    else
      printer << level;
  });
  printer << ']';
}

LoweringConfigAttr
LoweringConfigAttr::get(MLIRContext *context,
                        ArrayRef<SmallVector<int64_t>> tileSizes) {
  Builder b(context);
  SmallVector<Attribute> levels = llvm::map_to_vector(
      tileSizes, [&](const SmallVector<int64_t> &sizes) -> Attribute {
        return b.getDenseI64ArrayAttr(sizes);
      });
  return Base::get(context, b.getArrayAttr(levels));
}

LogicalResult
LoweringConfigAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                           ArrayAttr levels) {
  if (levels.empty())
    return emitError() << "tile_sizes must have at least one level";
  for (auto [levelIdx, level] : llvm::enumerate(levels)) {
    auto sizes = dyn_cast<DenseI64ArrayAttr>(level);
    // Unreachable from IR text, bytecode and the C API because all of them
    // build every level as a DenseI64ArrayAttr; kept so that a C++ caller of
    // getChecked(..., ArrayAttr) fails loudly rather than crashing in
    // getTileSizes.
    if (!sizes)
      return emitError() << "tile_sizes level " << levelIdx
                         << " must be a list of integers, got " << level;
    for (auto [pos, size] : llvm::enumerate(sizes.asArrayRef()))
      if (size < 0)
        return emitError() << "tile size must be non-negative (0 leaves a "
                              "loop untiled), got "
                           << size << " at level " << levelIdx
                           << ", position " << pos;
  }
  return success();
}

ArrayRef<int64_t> LoweringConfigAttr::getTileSizes(unsigned level) const {
  if (level >= getNumLevels())
    return {};
  return cast<DenseI64ArrayAttr>(getLevels()[level]).asArrayRef();
}

//===----------------------------------------------------------------------===//
// TranslationInfoAttr
//===----------------------------------------------------------------------===//

// Bounds on what a user may write, far beyond any GPU (1024 threads per
// block, a handful of pipeline stages) yet small enough that products of
// them (threads per workgroup, buffers times tile bytes) never overflow.
static constexpr int64_t kMaxThreadsPerWorkgroup = 1 << 16;
static constexpr int64_t kMaxPipelineDepth = 64;
/// Bound on workgroup counts a user may write (group sizes, persistent
/// grids): a GPU's grid is at most 2^31 - 1 workgroups along x.
static constexpr int64_t kMaxLaunchCount = (int64_t(1) << 31) - 1;
/// Workgroups of a thread-block cluster every sm_90 launch supports.
static constexpr int64_t kMaxClusterSize = 8;

Attribute TranslationInfoAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  std::optional<Pipeline> pipeline;
  SmallVector<int64_t> workgroupSize;
  std::optional<int64_t> subgroupSize;
  int64_t pipelineDepth = 1;
  int64_t storeStage = 1;
  std::optional<MmaKind> mmaKind;
  int64_t workgroupGroupSize = 1;
  std::optional<int64_t> persistentWorkgroups;
  SmallVector<int64_t> cluster;
  bool stagedStore = false;
  int64_t splitK = 1;
  bool streamK = false;

  auto parseValue = [&](StringRef key) -> ParseResult {
    if (key == "pipeline") {
      FailureOr<Pipeline> value = FieldParser<Pipeline>::parse(parser);
      if (failed(value))
        return failure();
      pipeline = *value;
      return success();
    }
    if (key == "workgroup_size")
      return parseIntegerList(parser, workgroupSize);
    if (key == "subgroup_size")
      return parser.parseInteger(subgroupSize.emplace());
    if (key == "pipeline_depth")
      return parser.parseInteger(pipelineDepth);
    if (key == "store_stage")
      return parser.parseInteger(storeStage);
    if (key == "workgroup_group_size")
      return parser.parseInteger(workgroupGroupSize);
    if (key == "persistent_workgroups")
      return parser.parseInteger(persistentWorkgroups.emplace());
    if (key == "cluster")
      return parseIntegerList(parser, cluster);
    if (key == "split_k")
      return parser.parseInteger(splitK);
    if (key == "staged_store" || key == "stream_k") {
      SMLoc valueLoc = parser.getCurrentLocation();
      StringRef value;
      if (parser.parseKeyword(&value))
        return failure();
      if (value != "true" && value != "false")
        return parser.emitError(valueLoc) << "expected 'true' or 'false' for "
                                          << key << ", got '" << value << "'";
      (key == "stream_k" ? streamK : stagedStore) = value == "true";
      return success();
    }
    FailureOr<MmaKind> value = FieldParser<MmaKind>::parse(parser);
    if (failed(value))
      return failure();
    mmaKind = *value;
    return success();
  };
  if (parseKeyValueBody(parser, "translation_info",
                        {"pipeline", "workgroup_size", "subgroup_size",
                         "pipeline_depth", "store_stage", "mma_kind",
                         "workgroup_group_size", "persistent_workgroups",
                         "cluster", "staged_store", "split_k", "stream_k"},
                        parseValue))
    return {};
  if (!pipeline) {
    parser.emitError(loc) << "#gpucg.translation_info requires "
                             "'pipeline = <name>'";
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    *pipeline, workgroupSize, subgroupSize, pipelineDepth,
                    storeStage, mmaKind, workgroupGroupSize,
                    persistentWorkgroups, cluster, stagedStore, splitK,
                    streamK);
}

void TranslationInfoAttr::print(AsmPrinter &printer) const {
  printer << "<pipeline = " << stringifyPipeline(getPipeline());
  if (!getWorkgroupSize().empty()) {
    printer << ", workgroup_size = ";
    printIntegerList(printer, getWorkgroupSize());
  }
  if (getSubgroupSize())
    printer << ", subgroup_size = " << *getSubgroupSize();
  if (getPipelineDepth() != 1)
    printer << ", pipeline_depth = " << getPipelineDepth();
  if (getStoreStage() != 1)
    printer << ", store_stage = " << getStoreStage();
  if (getMmaKind())
    printer << ", mma_kind = " << stringifyMmaKind(*getMmaKind());
  if (getWorkgroupGroupSize() != 1)
    printer << ", workgroup_group_size = " << getWorkgroupGroupSize();
  if (getPersistentWorkgroups())
    printer << ", persistent_workgroups = " << *getPersistentWorkgroups();
  if (!getCluster().empty()) {
    printer << ", cluster = ";
    printIntegerList(printer, getCluster());
  }
  if (getStagedStore())
    printer << ", staged_store = true";
  if (getSplitK() != 1)
    printer << ", split_k = " << getSplitK();
  if (getStreamK())
    printer << ", stream_k = true";
  printer << '>';
}

/// The MMA family a tensor-core pipeline uses, if `pipeline` is one.
static std::optional<MmaKind> getPipelineMmaKind(Pipeline pipeline) {
  switch (pipeline) {
  case Pipeline::MatmulTensorCore:
    return MmaKind::Wmma;
  case Pipeline::MatmulTensorCoreMmaSync:
    return MmaKind::MmaSync;
  default:
    return std::nullopt;
  }
}

LogicalResult TranslationInfoAttr::verify(
    function_ref<InFlightDiagnostic()> emitError, Pipeline pipeline,
    ArrayRef<int64_t> workgroupSize, std::optional<int64_t> subgroupSize,
    int64_t pipelineDepth, int64_t storeStage, std::optional<MmaKind> mmaKind,
    int64_t workgroupGroupSize, std::optional<int64_t> persistentWorkgroups,
    ArrayRef<int64_t> cluster, bool stagedStore, int64_t splitK, bool streamK) {
  if (!workgroupSize.empty()) {
    if (workgroupSize.size() != 3)
      return emitError() << "workgroup_size must list 3 sizes [x, y, z], got "
                         << workgroupSize.size();
    for (auto [dim, size] : llvm::enumerate(workgroupSize))
      if (size < 1 || size > kMaxThreadsPerWorkgroup)
        return emitError() << "workgroup_size[" << dim << "] must be from 1 to "
                           << kMaxThreadsPerWorkgroup << ", got " << size;
  }
  if (subgroupSize && (*subgroupSize < 1 || !llvm::isPowerOf2_64(*subgroupSize) ||
                       *subgroupSize > kMaxThreadsPerWorkgroup))
    return emitError() << "subgroup_size must be a power of two from 1 to "
                       << kMaxThreadsPerWorkgroup << ", got " << *subgroupSize;
  if (pipelineDepth < 1 || pipelineDepth > kMaxPipelineDepth)
    return emitError() << "pipeline_depth must be from 1 to "
                       << kMaxPipelineDepth << ", got " << pipelineDepth;
  if (storeStage != 0 && storeStage != 1)
    return emitError() << "store_stage must be 0 or 1, got " << storeStage;
  if (mmaKind) {
    std::optional<MmaKind> expected = getPipelineMmaKind(pipeline);
    if (!expected)
      return emitError() << "mma_kind is only allowed with a tensor-core "
                            "pipeline, got pipeline "
                         << stringifyPipeline(pipeline);
    if (*expected != *mmaKind)
      return emitError() << "mma_kind = " << stringifyMmaKind(*mmaKind)
                         << " contradicts pipeline "
                         << stringifyPipeline(pipeline) << ", which uses "
                         << stringifyMmaKind(*expected);
  }
  if (workgroupGroupSize < 1 || workgroupGroupSize > kMaxLaunchCount)
    return emitError() << "workgroup_group_size must be from 1 to "
                       << kMaxLaunchCount << ", got " << workgroupGroupSize;
  // The launch shape of a warp-specialized wgmma kernel: nothing else
  // implements it.
  if (pipeline != Pipeline::MatmulWgmma) {
    StringRef key = persistentWorkgroups ? "persistent_workgroups"
                    : !cluster.empty()   ? "cluster"
                    : stagedStore        ? "staged_store"
                    : streamK            ? "stream_k"
                                         : "";
    if (!key.empty())
      return emitError() << key
                         << " is only allowed with pipeline MatmulWgmma, got "
                            "pipeline "
                         << stringifyPipeline(pipeline);
  }
  if (splitK < 1 || splitK > kMaxSplitK)
    return emitError() << "split_k must be from 1 to " << kMaxSplitK << ", got "
                       << splitK;
  // The sum of the parts is built for mma.sync's register accumulators
  // (gpucg-combine-split-k) and MatmulWgmma's staging buffer.
  if (splitK > 1 && pipeline != Pipeline::MatmulTensorCoreMmaSync &&
      pipeline != Pipeline::MatmulWgmma)
    return emitError() << "split_k is only allowed with pipelines "
                          "MatmulTensorCoreMmaSync and MatmulWgmma, got "
                          "pipeline "
                       << stringifyPipeline(pipeline);
  // Stream-K is a schedule of the persistent grid's workgroups, and a
  // tile's K is either split in parts of the grid or split-K's.
  if (streamK && !persistentWorkgroups)
    return emitError() << "stream_k needs persistent_workgroups: stream-K "
                          "splits the tiles' K steps over a persistent grid";
  if (streamK && splitK > 1)
    return emitError() << "stream_k and split_k = " << splitK
                       << " both split the tiles' K; take one";
  if (persistentWorkgroups &&
      (*persistentWorkgroups < 1 || *persistentWorkgroups > kMaxLaunchCount))
    return emitError() << "persistent_workgroups must be from 1 to "
                       << kMaxLaunchCount << ", got " << *persistentWorkgroups;
  if (!cluster.empty()) {
    if (cluster.size() != 2)
      return emitError() << "cluster must list 2 sizes [m, n], got "
                         << cluster.size();
    if (cluster[0] < 1 || cluster[1] < 1 ||
        cluster[0] * cluster[1] > kMaxClusterSize)
      return emitError() << "cluster must have 1 to " << kMaxClusterSize
                         << " workgroups (the portable cluster size), each "
                            "size at least 1, got ["
                         << cluster[0] << ", " << cluster[1] << "]";
  }
  return success();
}

std::optional<MmaKind> TranslationInfoAttr::getTensorCoreMmaKind() const {
  return getPipelineMmaKind(getPipeline());
}

std::optional<int64_t> TranslationInfoAttr::getNumThreads() const {
  if (getWorkgroupSize().empty())
    return std::nullopt;
  int64_t numThreads = 1;
  for (int64_t size : getWorkgroupSize())
    numThreads *= size;
  return numThreads;
}

//===----------------------------------------------------------------------===//
// MmaShapeAttr
//===----------------------------------------------------------------------===//

/// Parses `MxNxK`.
static ParseResult parseMmaDims(AsmParser &parser, int64_t &m, int64_t &n,
                                int64_t &k) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> dims;
  if (parser.parseDimensionList(dims, /*allowDynamic=*/false,
                                /*withTrailingX=*/false))
    return failure();
  if (dims.size() != 3)
    return parser.emitError(loc)
           << "expected an MMA shape MxNxK with 3 dimensions, got "
           << dims.size();
  m = dims[0];
  n = dims[1];
  k = dims[2];
  return success();
}

static void printMmaDims(AsmPrinter &printer, int64_t m, int64_t n,
                         int64_t k) {
  printer << m << 'x' << n << 'x' << k;
}

LogicalResult MmaShapeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   MmaKind kind, int64_t m, int64_t n,
                                   int64_t k, Type aType, Type bType,
                                   Type cType) {
  if (m < 1 || n < 1 || k < 1)
    return emitError() << "MMA shape dimensions must be positive, got " << m
                       << "x" << n << "x" << k;
  for (Type type : {aType, bType, cType})
    if (!isa<IntegerType, FloatType>(type))
      return emitError()
             << "MMA element types must be integer or floating point, got "
             << type;
  return success();
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

namespace {
/// Keys of #gpucg.target in printing order. The integer limits follow `chip`
/// in the order of TargetAttr's parameters.
constexpr StringLiteral kChipKey = "chip";
constexpr StringLiteral kMmaShapesKey = "mma_shapes";
constexpr StringLiteral kLimitKeys[] = {
    "warp_size",
    "max_threads_per_block",
    "max_shared_memory_per_block",
    "max_shared_memory_per_block_optin",
    "max_registers_per_block",
    "max_registers_per_thread",
    "num_sms"};
constexpr size_t kNumLimits = std::size(kLimitKeys);

SmallVector<int64_t, kNumLimits> getLimits(TargetAttr target) {
  return {target.getWarpSize(),
          target.getMaxThreadsPerBlock(),
          target.getMaxSharedMemoryPerBlock(),
          target.getMaxSharedMemoryPerBlockOptin(),
          target.getMaxRegistersPerBlock(),
          target.getMaxRegistersPerThread(),
          target.getNumSms()};
}
} // namespace

Attribute TargetAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  std::string chip;
  bool hasChip = false;
  std::optional<int64_t> limits[kNumLimits];
  std::optional<SmallVector<MmaShapeAttr>> mmaShapes;

  SmallVector<StringRef> keys = {kChipKey};
  keys.append(std::begin(kLimitKeys), std::end(kLimitKeys));
  keys.push_back(kMmaShapesKey);

  auto parseValue = [&](StringRef key) -> ParseResult {
    if (key == kChipKey) {
      hasChip = true;
      return parser.parseString(&chip);
    }
    if (key == kMmaShapesKey) {
      mmaShapes.emplace();
      return parser.parseCommaSeparatedList(
          AsmParser::Delimiter::Square, [&]() {
            return parser.parseAttribute(mmaShapes->emplace_back());
          });
    }
    auto *it = llvm::find(kLimitKeys, key);
    return parser.parseInteger(limits[it - std::begin(kLimitKeys)].emplace());
  };
  if (parseKeyValueBody(parser, "target", keys, parseValue))
    return {};
  if (!hasChip) {
    parser.emitError(loc) << "#gpucg.target requires 'chip = \"sm_XY\"'";
    return {};
  }

  // Every key not given comes from the chip's published description.
  TargetAttr known = getForChip(parser.getContext(), chip);
  if (!known) {
    SmallVector<StringRef> missing;
    for (auto [key, limit] : llvm::zip_equal(kLimitKeys, limits))
      if (!limit)
        missing.push_back(key);
    if (!mmaShapes)
      missing.push_back(kMmaShapesKey);
    if (!missing.empty()) {
      InFlightDiagnostic diag = parser.emitError(loc)
                                << "unknown chip '" << chip << "' (known: ";
      llvm::interleaveComma(getKnownChips(), diag);
      diag << "); an unknown chip must give every limit, missing: ";
      llvm::interleaveComma(missing, diag);
      return {};
    }
  } else {
    for (auto [limit, knownLimit] : llvm::zip_equal(limits, getLimits(known)))
      if (!limit)
        limit = knownLimit;
    if (!mmaShapes)
      mmaShapes.emplace(known.getMmaShapes());
  }
  return getChecked([&] { return parser.emitError(loc); },
                    parser.getContext(), chip, *limits[0], *limits[1],
                    *limits[2], *limits[3], *limits[4], *limits[5],
                    *limits[6], *mmaShapes);
}

void TargetAttr::print(AsmPrinter &printer) const {
  printer << "<chip = \"" << getChip() << "\"";
  for (auto [key, limit] : llvm::zip_equal(kLimitKeys, getLimits(*this)))
    printer << ", " << key << " = " << limit;
  printer << ", " << kMmaShapesKey << " = [";
  llvm::interleaveComma(getMmaShapes(), printer,
                        [&](MmaShapeAttr shape) { printer.printAttribute(shape); });
  printer << "]>";
}

LogicalResult TargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef chip, int64_t warpSize,
                                 int64_t maxThreadsPerBlock,
                                 int64_t maxSharedMemoryPerBlock,
                                 int64_t maxSharedMemoryPerBlockOptin,
                                 int64_t maxRegistersPerBlock,
                                 int64_t maxRegistersPerThread,
                                 int64_t numSms,
                                 ArrayRef<MmaShapeAttr> mmaShapes) {
  static const llvm::Regex chipRegex("^sm_[0-9]{2,3}a?$");
  if (!chipRegex.match(chip))
    return emitError() << "chip must look like sm_<major><minor>[a] (e.g. "
                          "sm_80, sm_90a), got '"
                       << chip << "'";
  if (warpSize < 1 || !llvm::isPowerOf2_64(warpSize) ||
      warpSize > kMaxThreadsPerWorkgroup)
    return emitError() << "warp_size must be a power of two from 1 to "
                       << kMaxThreadsPerWorkgroup << ", got " << warpSize;
  if (maxThreadsPerBlock < warpSize || maxThreadsPerBlock % warpSize != 0 ||
      maxThreadsPerBlock > kMaxThreadsPerWorkgroup)
    return emitError() << "max_threads_per_block must be a multiple of "
                          "warp_size ("
                       << warpSize << ") from " << warpSize << " to "
                       << kMaxThreadsPerWorkgroup << ", got "
                       << maxThreadsPerBlock;
  if (maxSharedMemoryPerBlock < 0)
    return emitError()
           << "max_shared_memory_per_block must be non-negative, got "
           << maxSharedMemoryPerBlock;
  if (maxSharedMemoryPerBlockOptin < maxSharedMemoryPerBlock)
    return emitError() << "max_shared_memory_per_block_optin ("
                       << maxSharedMemoryPerBlockOptin
                       << ") must be at least max_shared_memory_per_block ("
                       << maxSharedMemoryPerBlock << ")";
  if (maxRegistersPerThread < 1)
    return emitError() << "max_registers_per_thread must be positive, got "
                       << maxRegistersPerThread;
  if (maxRegistersPerBlock < maxRegistersPerThread)
    return emitError() << "max_registers_per_block (" << maxRegistersPerBlock
                       << ") must be at least max_registers_per_thread ("
                       << maxRegistersPerThread << ")";
  if (numSms < 1)
    return emitError() << "num_sms must be positive, got " << numSms;
  for (auto [idx, shape] : llvm::enumerate(mmaShapes))
    if (!shape)
      return emitError() << "mma_shapes[" << idx << "] is null";
  return success();
}

int64_t TargetAttr::getComputeCapability() const {
  int64_t capability = 0;
  // The verifier guarantees `sm_` followed by digits and an optional `a`.
  getChip().drop_front(3).take_while(llvm::isDigit).getAsInteger(10,
                                                                  capability);
  return capability;
}

SmallVector<MmaShapeAttr> TargetAttr::getMmaShapes(MmaKind kind, Type a,
                                                   Type b, Type c) const {
  return llvm::filter_to_vector(getMmaShapes(), [&](MmaShapeAttr shape) {
    return shape.getKind() == kind && shape.getAType() == a &&
           shape.getBType() == b && shape.getCType() == c;
  });
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

#define GET_ATTRDEF_CLASSES
#include "gpucg/Dialect/Gpucg/IR/GpucgAttrs.cpp.inc"

void GpucgDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "gpucg/Dialect/Gpucg/IR/GpucgAttrs.cpp.inc"
      >();
}

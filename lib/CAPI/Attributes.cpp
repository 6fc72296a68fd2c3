//===- Attributes.cpp - C API of the gpucg attributes ---------------------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gpucg-c/Attributes.h"

#include "gpucg/Dialect/Gpucg/IR/GpucgDialect.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"

using namespace mlir;
using namespace mlir::gpucg;

// The C enums spell the values of GpucgAttrs.td.
static_assert(MlirGpucgPipelineNone == static_cast<int>(Pipeline::None));
static_assert(MlirGpucgPipelineSimtDistribute ==
              static_cast<int>(Pipeline::SimtDistribute));
static_assert(MlirGpucgPipelineVectorize ==
              static_cast<int>(Pipeline::Vectorize));
static_assert(MlirGpucgPipelineMatmulSimt ==
              static_cast<int>(Pipeline::MatmulSimt));
static_assert(MlirGpucgPipelineMatmulTensorCore ==
              static_cast<int>(Pipeline::MatmulTensorCore));
static_assert(MlirGpucgPipelineMatmulTensorCoreMmaSync ==
              static_cast<int>(Pipeline::MatmulTensorCoreMmaSync));
static_assert(MlirGpucgPipelineWarpReduction ==
              static_cast<int>(Pipeline::WarpReduction));
static_assert(MlirGpucgPipelineMatmulWgmma ==
              static_cast<int>(Pipeline::MatmulWgmma));
static_assert(MlirGpucgMmaKindWmma == static_cast<int>(MmaKind::Wmma));
static_assert(MlirGpucgMmaKindMmaSync == static_cast<int>(MmaKind::MmaSync));

/// Where builders report what makes their arguments invalid: an error at an
/// unknown location of `context`.
static llvm::unique_function<InFlightDiagnostic()>
emitErrorIn(MLIRContext *context) {
  return mlir::detail::getDefaultDiagnosticEmitFn(context);
}

/// The context of a builder, with the gpucg dialect loaded: building an
/// attribute of a dialect that is only registered would crash.
static MLIRContext *loadedContext(MlirContext ctx) {
  MLIRContext *context = unwrap(ctx);
  context->getOrLoadDialect<GpucgDialect>();
  return context;
}

/// The C++ pipeline of a C value; emits an error when out of range.
static std::optional<Pipeline> toPipeline(MLIRContext *context,
                                          MlirGpucgPipeline pipeline) {
  std::optional<Pipeline> value =
      pipeline < 0 ? std::nullopt
                   : symbolizePipeline(static_cast<uint32_t>(pipeline));
  if (!value)
    emitErrorIn(context)() << "invalid gpucg pipeline value "
                           << static_cast<int64_t>(pipeline);
  return value;
}

/// The C++ MMA kind of a C value (nullopt for Unset); fails, with an error,
/// when out of range.
static FailureOr<std::optional<MmaKind>> toMmaKind(MLIRContext *context,
                                                   MlirGpucgMmaKind kind) {
  if (kind == MlirGpucgMmaKindUnset)
    return std::optional<MmaKind>();
  std::optional<MmaKind> value =
      kind < 0 ? std::nullopt : symbolizeMmaKind(static_cast<uint32_t>(kind));
  if (!value) {
    emitErrorIn(context)() << "invalid gpucg mma kind value "
                           << static_cast<int64_t>(kind);
    return failure();
  }
  return value;
}

static MlirGpucgMmaKind wrapMmaKind(std::optional<MmaKind> kind) {
  return kind ? static_cast<MlirGpucgMmaKind>(*kind) : MlirGpucgMmaKindUnset;
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

MlirStringRef mlirGpucgPipelineGetName(MlirGpucgPipeline pipeline) {
  std::optional<Pipeline> value =
      pipeline < 0 ? std::nullopt
                   : symbolizePipeline(static_cast<uint32_t>(pipeline));
  return wrap(value ? stringifyPipeline(*value) : StringRef());
}

bool mlirGpucgPipelineFromName(MlirStringRef name,
                               MlirGpucgPipeline *pipeline) {
  std::optional<Pipeline> value = symbolizePipeline(unwrap(name));
  if (!value)
    return false;
  *pipeline = static_cast<MlirGpucgPipeline>(*value);
  return true;
}

//===----------------------------------------------------------------------===//
// LoweringConfigAttr
//===----------------------------------------------------------------------===//

bool mlirAttributeIsAGpucgLoweringConfigAttr(MlirAttribute attr) {
  return isa<LoweringConfigAttr>(unwrap(attr));
}

MlirAttribute mlirGpucgLoweringConfigAttrGet(MlirContext ctx,
                                             intptr_t numLevels,
                                             const intptr_t *levelSizes,
                                             const int64_t *tileSizes) {
  MLIRContext *context = loadedContext(ctx);
  Builder builder(context);
  SmallVector<Attribute> levels;
  const int64_t *next = tileSizes;
  for (intptr_t level = 0; level < numLevels; ++level) {
    if (levelSizes[level] < 0) {
      emitErrorIn(context)()
          << "negative number of tile sizes at level " << level;
      return MlirAttribute{nullptr};
    }
    levels.push_back(builder.getDenseI64ArrayAttr(
        ArrayRef<int64_t>(next, levelSizes[level])));
    next += levelSizes[level];
  }
  return wrap(LoweringConfigAttr::getChecked(emitErrorIn(context), context,
                                             builder.getArrayAttr(levels)));
}

intptr_t mlirGpucgLoweringConfigAttrGetNumLevels(MlirAttribute attr) {
  return cast<LoweringConfigAttr>(unwrap(attr)).getNumLevels();
}

intptr_t mlirGpucgLoweringConfigAttrGetNumTileSizes(MlirAttribute attr,
                                                    intptr_t level) {
  if (level < 0)
    return 0;
  return cast<LoweringConfigAttr>(unwrap(attr)).getTileSizes(level).size();
}

int64_t mlirGpucgLoweringConfigAttrGetTileSize(MlirAttribute attr,
                                               intptr_t level, intptr_t pos) {
  return cast<LoweringConfigAttr>(unwrap(attr)).getTileSizes(level)[pos];
}

MlirTypeID mlirGpucgLoweringConfigAttrGetTypeID(void) {
  return wrap(TypeID::get<LoweringConfigAttr>());
}

//===----------------------------------------------------------------------===//
// TranslationInfoAttr
//===----------------------------------------------------------------------===//

bool mlirAttributeIsAGpucgTranslationInfoAttr(MlirAttribute attr) {
  return isa<TranslationInfoAttr>(unwrap(attr));
}

MlirAttribute mlirGpucgTranslationInfoAttrGet(
    MlirContext ctx, MlirGpucgPipeline pipeline, intptr_t numWorkgroupSizes,
    const int64_t *workgroupSizes, int64_t subgroupSize, int64_t pipelineDepth,
    int64_t storeStage, MlirGpucgMmaKind mmaKind) {
  MLIRContext *context = loadedContext(ctx);
  std::optional<Pipeline> cppPipeline = toPipeline(context, pipeline);
  FailureOr<std::optional<MmaKind>> cppMmaKind = toMmaKind(context, mmaKind);
  if (!cppPipeline || failed(cppMmaKind))
    return MlirAttribute{nullptr};
  if (numWorkgroupSizes < 0) {
    emitErrorIn(context)() << "negative number of workgroup sizes";
    return MlirAttribute{nullptr};
  }
  ArrayRef<int64_t> workgroupSize(workgroupSizes, numWorkgroupSizes);
  std::optional<int64_t> subgroup =
      subgroupSize ? std::optional<int64_t>(subgroupSize) : std::nullopt;
  return wrap(TranslationInfoAttr::getChecked(
      emitErrorIn(context), context, *cppPipeline, workgroupSize, subgroup,
      pipelineDepth, storeStage, *cppMmaKind,
      /*workgroupGroupSize=*/int64_t(1),
      /*persistentWorkgroups=*/std::optional<int64_t>(),
      /*cluster=*/ArrayRef<int64_t>(), /*stagedStore=*/false,
      /*splitK=*/int64_t(1), /*streamK=*/false));
}

MlirGpucgPipeline mlirGpucgTranslationInfoAttrGetPipeline(MlirAttribute attr) {
  return static_cast<MlirGpucgPipeline>(
      cast<TranslationInfoAttr>(unwrap(attr)).getPipeline());
}

intptr_t mlirGpucgTranslationInfoAttrGetNumWorkgroupSizes(MlirAttribute attr) {
  return cast<TranslationInfoAttr>(unwrap(attr)).getWorkgroupSize().size();
}

int64_t mlirGpucgTranslationInfoAttrGetWorkgroupSize(MlirAttribute attr,
                                                     intptr_t pos) {
  return cast<TranslationInfoAttr>(unwrap(attr)).getWorkgroupSize()[pos];
}

int64_t mlirGpucgTranslationInfoAttrGetSubgroupSize(MlirAttribute attr) {
  return cast<TranslationInfoAttr>(unwrap(attr)).getSubgroupSize().value_or(0);
}

int64_t mlirGpucgTranslationInfoAttrGetPipelineDepth(MlirAttribute attr) {
  return cast<TranslationInfoAttr>(unwrap(attr)).getPipelineDepth();
}

int64_t mlirGpucgTranslationInfoAttrGetStoreStage(MlirAttribute attr) {
  return cast<TranslationInfoAttr>(unwrap(attr)).getStoreStage();
}

MlirGpucgMmaKind mlirGpucgTranslationInfoAttrGetMmaKind(MlirAttribute attr) {
  return wrapMmaKind(cast<TranslationInfoAttr>(unwrap(attr)).getMmaKind());
}

int64_t mlirGpucgTranslationInfoAttrGetWorkgroupGroupSize(MlirAttribute attr) {
  return cast<TranslationInfoAttr>(unwrap(attr)).getWorkgroupGroupSize();
}

int64_t
mlirGpucgTranslationInfoAttrGetPersistentWorkgroups(MlirAttribute attr) {
  return cast<TranslationInfoAttr>(unwrap(attr))
      .getPersistentWorkgroups()
      .value_or(0);
}

int64_t mlirGpucgTranslationInfoAttrGetClusterM(MlirAttribute attr) {
  return cast<TranslationInfoAttr>(unwrap(attr)).getClusterM();
}

int64_t mlirGpucgTranslationInfoAttrGetClusterN(MlirAttribute attr) {
  return cast<TranslationInfoAttr>(unwrap(attr)).getClusterN();
}

bool mlirGpucgTranslationInfoAttrGetStagedStore(MlirAttribute attr) {
  return cast<TranslationInfoAttr>(unwrap(attr)).getStagedStore();
}

int64_t mlirGpucgTranslationInfoAttrGetSplitK(MlirAttribute attr) {
  return cast<TranslationInfoAttr>(unwrap(attr)).getSplitK();
}

bool mlirGpucgTranslationInfoAttrGetStreamK(MlirAttribute attr) {
  return cast<TranslationInfoAttr>(unwrap(attr)).getStreamK();
}

MlirTypeID mlirGpucgTranslationInfoAttrGetTypeID(void) {
  return wrap(TypeID::get<TranslationInfoAttr>());
}

//===----------------------------------------------------------------------===//
// CompilationInfoAttr
//===----------------------------------------------------------------------===//

bool mlirAttributeIsAGpucgCompilationInfoAttr(MlirAttribute attr) {
  return isa<CompilationInfoAttr>(unwrap(attr));
}

MlirAttribute mlirGpucgCompilationInfoAttrGet(MlirContext ctx,
                                              MlirAttribute loweringConfig,
                                              MlirAttribute translationInfo) {
  MLIRContext *context = loadedContext(ctx);
  auto config = dyn_cast_if_present<LoweringConfigAttr>(unwrap(loweringConfig));
  auto info = dyn_cast_if_present<TranslationInfoAttr>(unwrap(translationInfo));
  if (!config || !info) {
    emitErrorIn(context)()
        << "a #gpucg.compilation_info needs a #gpucg.lowering_config and a "
           "#gpucg.translation_info, got "
        << unwrap(loweringConfig) << " and " << unwrap(translationInfo);
    return MlirAttribute{nullptr};
  }
  return wrap(CompilationInfoAttr::get(context, config, info));
}

MlirAttribute
mlirGpucgCompilationInfoAttrGetLoweringConfig(MlirAttribute attr) {
  return wrap(cast<CompilationInfoAttr>(unwrap(attr)).getLoweringConfig());
}

MlirAttribute
mlirGpucgCompilationInfoAttrGetTranslationInfo(MlirAttribute attr) {
  return wrap(cast<CompilationInfoAttr>(unwrap(attr)).getTranslationInfo());
}

MlirTypeID mlirGpucgCompilationInfoAttrGetTypeID(void) {
  return wrap(TypeID::get<CompilationInfoAttr>());
}

//===----------------------------------------------------------------------===//
// MmaShapeAttr
//===----------------------------------------------------------------------===//

bool mlirAttributeIsAGpucgMmaShapeAttr(MlirAttribute attr) {
  return isa<MmaShapeAttr>(unwrap(attr));
}

MlirAttribute mlirGpucgMmaShapeAttrGet(MlirContext ctx, MlirGpucgMmaKind kind,
                                       int64_t m, int64_t n, int64_t k,
                                       MlirType aType, MlirType bType,
                                       MlirType cType) {
  MLIRContext *context = loadedContext(ctx);
  FailureOr<std::optional<MmaKind>> cppKind = toMmaKind(context, kind);
  if (failed(cppKind))
    return MlirAttribute{nullptr};
  if (!*cppKind) {
    emitErrorIn(context)() << "a #gpucg.mma_shape needs an mma kind";
    return MlirAttribute{nullptr};
  }
  return wrap(MmaShapeAttr::getChecked(emitErrorIn(context), context, **cppKind,
                                       m, n, k, unwrap(aType), unwrap(bType),
                                       unwrap(cType)));
}

MlirGpucgMmaKind mlirGpucgMmaShapeAttrGetKind(MlirAttribute attr) {
  return wrapMmaKind(cast<MmaShapeAttr>(unwrap(attr)).getKind());
}

int64_t mlirGpucgMmaShapeAttrGetM(MlirAttribute attr) {
  return cast<MmaShapeAttr>(unwrap(attr)).getM();
}

int64_t mlirGpucgMmaShapeAttrGetN(MlirAttribute attr) {
  return cast<MmaShapeAttr>(unwrap(attr)).getN();
}

int64_t mlirGpucgMmaShapeAttrGetK(MlirAttribute attr) {
  return cast<MmaShapeAttr>(unwrap(attr)).getK();
}

MlirType mlirGpucgMmaShapeAttrGetAType(MlirAttribute attr) {
  return wrap(cast<MmaShapeAttr>(unwrap(attr)).getAType());
}

MlirType mlirGpucgMmaShapeAttrGetBType(MlirAttribute attr) {
  return wrap(cast<MmaShapeAttr>(unwrap(attr)).getBType());
}

MlirType mlirGpucgMmaShapeAttrGetCType(MlirAttribute attr) {
  return wrap(cast<MmaShapeAttr>(unwrap(attr)).getCType());
}

//===----------------------------------------------------------------------===//
// TargetAttr
//===----------------------------------------------------------------------===//

bool mlirAttributeIsAGpucgTargetAttr(MlirAttribute attr) {
  return isa<TargetAttr>(unwrap(attr));
}

MlirAttribute mlirGpucgTargetAttrGetForChip(MlirContext ctx,
                                            MlirStringRef chip) {
  return wrap(TargetAttr::getForChip(loadedContext(ctx), unwrap(chip)));
}

MlirAttribute mlirGpucgTargetAttrGet(
    MlirContext ctx, MlirStringRef chip, int64_t warpSize,
    int64_t maxThreadsPerBlock, int64_t maxSharedMemoryPerBlock,
    int64_t maxSharedMemoryPerBlockOptin, int64_t maxRegistersPerBlock,
    int64_t maxRegistersPerThread, int64_t numSms, intptr_t numMmaShapes,
    const MlirAttribute *mmaShapes) {
  MLIRContext *context = loadedContext(ctx);
  SmallVector<MmaShapeAttr> shapes;
  for (intptr_t i = 0; i < numMmaShapes; ++i) {
    auto shape = dyn_cast_if_present<MmaShapeAttr>(unwrap(mmaShapes[i]));
    if (!shape) {
      emitErrorIn(context)()
          << "mma shape #" << i
          << " is not a #gpucg.mma_shape: " << unwrap(mmaShapes[i]);
      return MlirAttribute{nullptr};
    }
    shapes.push_back(shape);
  }
  return wrap(TargetAttr::getChecked(
      emitErrorIn(context), context, unwrap(chip), warpSize, maxThreadsPerBlock,
      maxSharedMemoryPerBlock, maxSharedMemoryPerBlockOptin,
      maxRegistersPerBlock, maxRegistersPerThread, numSms,
      ArrayRef<MmaShapeAttr>(shapes)));
}

intptr_t mlirGpucgTargetGetNumKnownChips(void) {
  return TargetAttr::getKnownChips().size();
}

MlirStringRef mlirGpucgTargetGetKnownChip(intptr_t pos) {
  return wrap(TargetAttr::getKnownChips()[pos]);
}

MlirStringRef mlirGpucgTargetAttrGetChip(MlirAttribute attr) {
  return wrap(cast<TargetAttr>(unwrap(attr)).getChip());
}

int64_t mlirGpucgTargetAttrGetComputeCapability(MlirAttribute attr) {
  return cast<TargetAttr>(unwrap(attr)).getComputeCapability();
}

int64_t mlirGpucgTargetAttrGetWarpSize(MlirAttribute attr) {
  return cast<TargetAttr>(unwrap(attr)).getWarpSize();
}

int64_t mlirGpucgTargetAttrGetMaxThreadsPerBlock(MlirAttribute attr) {
  return cast<TargetAttr>(unwrap(attr)).getMaxThreadsPerBlock();
}

int64_t mlirGpucgTargetAttrGetMaxSharedMemoryPerBlock(MlirAttribute attr) {
  return cast<TargetAttr>(unwrap(attr)).getMaxSharedMemoryPerBlock();
}

int64_t mlirGpucgTargetAttrGetMaxSharedMemoryPerBlockOptin(MlirAttribute attr) {
  return cast<TargetAttr>(unwrap(attr)).getMaxSharedMemoryPerBlockOptin();
}

int64_t mlirGpucgTargetAttrGetMaxRegistersPerBlock(MlirAttribute attr) {
  return cast<TargetAttr>(unwrap(attr)).getMaxRegistersPerBlock();
}

int64_t mlirGpucgTargetAttrGetMaxRegistersPerThread(MlirAttribute attr) {
  return cast<TargetAttr>(unwrap(attr)).getMaxRegistersPerThread();
}

int64_t mlirGpucgTargetAttrGetNumSms(MlirAttribute attr) {
  return cast<TargetAttr>(unwrap(attr)).getNumSms();
}

intptr_t mlirGpucgTargetAttrGetNumMmaShapes(MlirAttribute attr) {
  return cast<TargetAttr>(unwrap(attr)).getMmaShapes().size();
}

MlirAttribute mlirGpucgTargetAttrGetMmaShape(MlirAttribute attr, intptr_t pos) {
  return wrap(cast<TargetAttr>(unwrap(attr)).getMmaShapes()[pos]);
}

MlirTypeID mlirGpucgTargetAttrGetTypeID(void) {
  return wrap(TypeID::get<TargetAttr>());
}

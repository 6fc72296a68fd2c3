/*===- Attributes.h - C API of the gpucg attributes -----------------------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
|*===----------------------------------------------------------------------===*|
|*                                                                            *|
|* Builders, IsA checks and getters of #gpucg.lowering_config,                *|
|* #gpucg.translation_info, #gpucg.compilation_info, #gpucg.target and        *|
|* #gpucg.mma_shape (docs/Dialect.md). Builders verify: an invalid            *|
|* combination emits an error diagnostic on the context (attach a handler     *|
|* with mlirContextAttachDiagnosticHandler to read it) and returns a null     *|
|* attribute (mlirAttributeIsNull); they never abort. Getters take an         *|
|* attribute of the kind their name says (check with the IsA function).       *|
|*                                                                            *|
|* The names under which passes look for them, for                            *|
|* mlirOperationSetDiscardableAttributeByName:                                *|
|*   "gpucg.target" (module), "gpucg.translation_info" (kernel function),     *|
|*   "gpucg.lowering_config", "gpucg.compilation_info" (root op).             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef GPUCG_C_ATTRIBUTES_H
#define GPUCG_C_ATTRIBUTES_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===*/
/* Enums (the values of GpucgAttrs.td)                                        */
/*===----------------------------------------------------------------------===*/

/// `pipeline` of #gpucg.translation_info.
typedef enum MlirGpucgPipeline {
  MlirGpucgPipelineNone = 0,
  MlirGpucgPipelineSimtDistribute = 1,
  MlirGpucgPipelineVectorize = 2,
  MlirGpucgPipelineMatmulSimt = 3,
  MlirGpucgPipelineMatmulTensorCore = 4,
  MlirGpucgPipelineMatmulTensorCoreMmaSync = 5,
  MlirGpucgPipelineWarpReduction = 6,
  MlirGpucgPipelineMatmulWgmma = 7,
} MlirGpucgPipeline;

/// An MMA instruction family. MlirGpucgMmaKindUnset stands for an absent
/// optional `mma_kind`.
typedef enum MlirGpucgMmaKind {
  MlirGpucgMmaKindUnset = -1,
  MlirGpucgMmaKindWmma = 0,
  MlirGpucgMmaKindMmaSync = 1,
} MlirGpucgMmaKind;

/// The spelling of `pipeline` in the IR ("MatmulTensorCore"); an empty
/// string for a value out of range.
MLIR_CAPI_EXPORTED MlirStringRef
mlirGpucgPipelineGetName(MlirGpucgPipeline pipeline);

/// The pipeline spelled `name`; false when there is none.
MLIR_CAPI_EXPORTED bool mlirGpucgPipelineFromName(MlirStringRef name,
                                                  MlirGpucgPipeline *pipeline);

/*===----------------------------------------------------------------------===*/
/* #gpucg.lowering_config<tile_sizes = [[...], ...]>                          */
/*===----------------------------------------------------------------------===*/

MLIR_CAPI_EXPORTED bool
mlirAttributeIsAGpucgLoweringConfigAttr(MlirAttribute attr);

/// Builds a lowering config of `numLevels` tiling levels; level `i` has
/// `levelSizes[i]` tile sizes, all of them stored one level after the other
/// in `tileSizes` (the sum of `levelSizes` entries).
MLIR_CAPI_EXPORTED MlirAttribute mlirGpucgLoweringConfigAttrGet(
    MlirContext ctx, intptr_t numLevels, const intptr_t *levelSizes,
    const int64_t *tileSizes);

MLIR_CAPI_EXPORTED intptr_t
mlirGpucgLoweringConfigAttrGetNumLevels(MlirAttribute attr);

/// Number of tile sizes of `level`; 0 when there is no such level.
MLIR_CAPI_EXPORTED intptr_t
mlirGpucgLoweringConfigAttrGetNumTileSizes(MlirAttribute attr, intptr_t level);

MLIR_CAPI_EXPORTED int64_t mlirGpucgLoweringConfigAttrGetTileSize(
    MlirAttribute attr, intptr_t level, intptr_t pos);

MLIR_CAPI_EXPORTED MlirTypeID mlirGpucgLoweringConfigAttrGetTypeID(void);

/*===----------------------------------------------------------------------===*/
/* #gpucg.translation_info<pipeline = ..., ...>                               */
/*===----------------------------------------------------------------------===*/

MLIR_CAPI_EXPORTED bool
mlirAttributeIsAGpucgTranslationInfoAttr(MlirAttribute attr);

/// Builds a translation info. `numWorkgroupSizes` 0 leaves the workgroup
/// size unset (otherwise 3 sizes x, y, z); `subgroupSize` 0 leaves it unset;
/// `pipelineDepth` and `storeStage` default to 1 in the IR;
/// MlirGpucgMmaKindUnset leaves `mma_kind` unset.
MLIR_CAPI_EXPORTED MlirAttribute mlirGpucgTranslationInfoAttrGet(
    MlirContext ctx, MlirGpucgPipeline pipeline, intptr_t numWorkgroupSizes,
    const int64_t *workgroupSizes, int64_t subgroupSize, int64_t pipelineDepth,
    int64_t storeStage, MlirGpucgMmaKind mmaKind);

MLIR_CAPI_EXPORTED MlirGpucgPipeline
mlirGpucgTranslationInfoAttrGetPipeline(MlirAttribute attr);

/// Number of workgroup sizes (3, or 0 when unset).
MLIR_CAPI_EXPORTED intptr_t
mlirGpucgTranslationInfoAttrGetNumWorkgroupSizes(MlirAttribute attr);

MLIR_CAPI_EXPORTED int64_t
mlirGpucgTranslationInfoAttrGetWorkgroupSize(MlirAttribute attr, intptr_t pos);

/// The subgroup size, or 0 when unset.
MLIR_CAPI_EXPORTED int64_t
mlirGpucgTranslationInfoAttrGetSubgroupSize(MlirAttribute attr);

MLIR_CAPI_EXPORTED int64_t
mlirGpucgTranslationInfoAttrGetPipelineDepth(MlirAttribute attr);

MLIR_CAPI_EXPORTED int64_t
mlirGpucgTranslationInfoAttrGetStoreStage(MlirAttribute attr);

/// The `mma_kind` as written, or MlirGpucgMmaKindUnset.
MLIR_CAPI_EXPORTED MlirGpucgMmaKind
mlirGpucgTranslationInfoAttrGetMmaKind(MlirAttribute attr);

/// The `workgroup_group_size` (1: the launch order).
MLIR_CAPI_EXPORTED int64_t
mlirGpucgTranslationInfoAttrGetWorkgroupGroupSize(MlirAttribute attr);

/// The `persistent_workgroups`, or 0 for one workgroup per tile.
MLIR_CAPI_EXPORTED int64_t
mlirGpucgTranslationInfoAttrGetPersistentWorkgroups(MlirAttribute attr);

/// The `cluster`'s workgroups along M and along N (1 when unset).
MLIR_CAPI_EXPORTED int64_t
mlirGpucgTranslationInfoAttrGetClusterM(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t
mlirGpucgTranslationInfoAttrGetClusterN(MlirAttribute attr);

/// The `staged_store`.
MLIR_CAPI_EXPORTED bool
mlirGpucgTranslationInfoAttrGetStagedStore(MlirAttribute attr);

/// The `split_k`: parts of K, one per workgroup along grid z (1: no split).
MLIR_CAPI_EXPORTED int64_t
mlirGpucgTranslationInfoAttrGetSplitK(MlirAttribute attr);

/// The `stream_k`: the last waves' K steps split evenly over the persistent
/// grid.
MLIR_CAPI_EXPORTED bool
mlirGpucgTranslationInfoAttrGetStreamK(MlirAttribute attr);

MLIR_CAPI_EXPORTED MlirTypeID mlirGpucgTranslationInfoAttrGetTypeID(void);

/*===----------------------------------------------------------------------===*/
/* #gpucg.compilation_info<lowering_config = ..., translation_info = ...>     */
/*===----------------------------------------------------------------------===*/

MLIR_CAPI_EXPORTED bool
mlirAttributeIsAGpucgCompilationInfoAttr(MlirAttribute attr);

/// Builds a compilation info from a lowering config and a translation info;
/// null (with an error diagnostic) when either is of another kind.
MLIR_CAPI_EXPORTED MlirAttribute
mlirGpucgCompilationInfoAttrGet(MlirContext ctx, MlirAttribute loweringConfig,
                                MlirAttribute translationInfo);

MLIR_CAPI_EXPORTED MlirAttribute
mlirGpucgCompilationInfoAttrGetLoweringConfig(MlirAttribute attr);

MLIR_CAPI_EXPORTED MlirAttribute
mlirGpucgCompilationInfoAttrGetTranslationInfo(MlirAttribute attr);

MLIR_CAPI_EXPORTED MlirTypeID mlirGpucgCompilationInfoAttrGetTypeID(void);

/*===----------------------------------------------------------------------===*/
/* #gpucg.mma_shape<kind, MxNxK, A * B -> C>                                  */
/*===----------------------------------------------------------------------===*/

MLIR_CAPI_EXPORTED bool mlirAttributeIsAGpucgMmaShapeAttr(MlirAttribute attr);

MLIR_CAPI_EXPORTED MlirAttribute mlirGpucgMmaShapeAttrGet(
    MlirContext ctx, MlirGpucgMmaKind kind, int64_t m, int64_t n, int64_t k,
    MlirType aType, MlirType bType, MlirType cType);

MLIR_CAPI_EXPORTED MlirGpucgMmaKind
mlirGpucgMmaShapeAttrGetKind(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirGpucgMmaShapeAttrGetM(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirGpucgMmaShapeAttrGetN(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirGpucgMmaShapeAttrGetK(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirType mlirGpucgMmaShapeAttrGetAType(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirType mlirGpucgMmaShapeAttrGetBType(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirType mlirGpucgMmaShapeAttrGetCType(MlirAttribute attr);

/*===----------------------------------------------------------------------===*/
/* #gpucg.target<chip = "sm_XY", ...>                                         */
/*===----------------------------------------------------------------------===*/

MLIR_CAPI_EXPORTED bool mlirAttributeIsAGpucgTargetAttr(MlirAttribute attr);

/// The description of a chip gpucg knows, from NVIDIA's published limits;
/// a null attribute (and no diagnostic) for another chip.
MLIR_CAPI_EXPORTED MlirAttribute
mlirGpucgTargetAttrGetForChip(MlirContext ctx, MlirStringRef chip);

/// Builds a target from every limit; `mmaShapes` are #gpucg.mma_shape
/// attributes.
MLIR_CAPI_EXPORTED MlirAttribute mlirGpucgTargetAttrGet(
    MlirContext ctx, MlirStringRef chip, int64_t warpSize,
    int64_t maxThreadsPerBlock, int64_t maxSharedMemoryPerBlock,
    int64_t maxSharedMemoryPerBlockOptin, int64_t maxRegistersPerBlock,
    int64_t maxRegistersPerThread, int64_t numSms, intptr_t numMmaShapes,
    const MlirAttribute *mmaShapes);

/// Number of chips mlirGpucgTargetAttrGetForChip knows, and their names in
/// ascending order.
MLIR_CAPI_EXPORTED intptr_t mlirGpucgTargetGetNumKnownChips(void);
MLIR_CAPI_EXPORTED MlirStringRef mlirGpucgTargetGetKnownChip(intptr_t pos);

/// The chip; the string lives as long as the context.
MLIR_CAPI_EXPORTED MlirStringRef mlirGpucgTargetAttrGetChip(MlirAttribute attr);
/// Compute capability as major * 10 + minor (sm_80: 80).
MLIR_CAPI_EXPORTED int64_t
mlirGpucgTargetAttrGetComputeCapability(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirGpucgTargetAttrGetWarpSize(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t
mlirGpucgTargetAttrGetMaxThreadsPerBlock(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t
mlirGpucgTargetAttrGetMaxSharedMemoryPerBlock(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t
mlirGpucgTargetAttrGetMaxSharedMemoryPerBlockOptin(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t
mlirGpucgTargetAttrGetMaxRegistersPerBlock(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t
mlirGpucgTargetAttrGetMaxRegistersPerThread(MlirAttribute attr);
MLIR_CAPI_EXPORTED int64_t mlirGpucgTargetAttrGetNumSms(MlirAttribute attr);
MLIR_CAPI_EXPORTED intptr_t
mlirGpucgTargetAttrGetNumMmaShapes(MlirAttribute attr);
MLIR_CAPI_EXPORTED MlirAttribute
mlirGpucgTargetAttrGetMmaShape(MlirAttribute attr, intptr_t pos);

MLIR_CAPI_EXPORTED MlirTypeID mlirGpucgTargetAttrGetTypeID(void);

#ifdef __cplusplus
}
#endif

#endif /* GPUCG_C_ATTRIBUTES_H */

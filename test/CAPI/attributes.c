/*===- attributes.c - C API of the gpucg attributes -----------------------===*\
|*                                                                            *|
|* Part of the gpucg project, under the Apache License v2.0 with LLVM         *|
|* Exceptions. See LICENSE for license information.                           *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                    *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

/* RUN: gpucg-capi-attributes 2>&1 | FileCheck %s
 */

#include "gpucg-c/Attributes.h"
#include "gpucg-c/Dialects.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static void printToStdout(MlirStringRef text, void *userData) {
  (void)userData;
  fwrite(text.data, 1, text.length, stdout);
}

static void printAttr(const char *label, MlirAttribute attr) {
  printf("%s: ", label);
  if (mlirAttributeIsNull(attr))
    printf("<null>");
  else
    mlirAttributePrint(attr, printToStdout, NULL);
  printf("\n");
}

/* Prints every diagnostic, so that a builder's error shows. */
static MlirLogicalResult printDiagnostic(MlirDiagnostic diagnostic,
                                         void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(diagnostic, printToStdout, NULL);
  printf("\n");
  return mlirLogicalResultSuccess();
}

static int failures = 0;
#define EXPECT(cond)                                                           \
  do {                                                                         \
    if (!(cond)) {                                                             \
      fprintf(stderr, "FAILED: %s (line %d)\n", #cond, __LINE__);              \
      ++failures;                                                              \
    }                                                                          \
  } while (0)

// CHECK-LABEL: testLoweringConfig
static void testLoweringConfig(MlirContext ctx) {
  printf("testLoweringConfig\n");
  intptr_t levelSizes[] = {3, 3};
  int64_t tileSizes[] = {32, 64, 16, 16, 32, 16};
  MlirAttribute config =
      mlirGpucgLoweringConfigAttrGet(ctx, 2, levelSizes, tileSizes);
  // CHECK: config: #gpucg.lowering_config<tile_sizes = {{\[}}[32, 64, 16], [16, 32, 16]]>
  printAttr("config", config);
  EXPECT(mlirAttributeIsAGpucgLoweringConfigAttr(config));
  EXPECT(!mlirAttributeIsAGpucgTranslationInfoAttr(config));
  EXPECT(mlirTypeIDEqual(mlirAttributeGetTypeID(config),
                         mlirGpucgLoweringConfigAttrGetTypeID()));
  // CHECK: levels 2, level 1: 3 sizes, [1][1] = 32, level 7: 0 sizes
  printf("levels %" PRIdPTR ", level 1: %" PRIdPTR " sizes, [1][1] = %" PRId64
         ", level 7: %" PRIdPTR " sizes\n",
         mlirGpucgLoweringConfigAttrGetNumLevels(config),
         mlirGpucgLoweringConfigAttrGetNumTileSizes(config, 1),
         mlirGpucgLoweringConfigAttrGetTileSize(config, 1, 1),
         mlirGpucgLoweringConfigAttrGetNumTileSizes(config, 7));

  /* A negative tile size is refused with an error, not an abort. */
  int64_t negative[] = {-4};
  intptr_t one[] = {1};
  // CHECK: diagnostic: {{.*}}tile size
  // CHECK: invalid config: <null>
  printAttr("invalid config",
            mlirGpucgLoweringConfigAttrGet(ctx, 1, one, negative));
}

// CHECK-LABEL: testTranslationInfo
static void testTranslationInfo(MlirContext ctx) {
  printf("testTranslationInfo\n");
  int64_t workgroup[] = {64, 2, 1};
  MlirAttribute info = mlirGpucgTranslationInfoAttrGet(
      ctx, MlirGpucgPipelineMatmulTensorCoreMmaSync, 3, workgroup, 32, 3, 1,
      MlirGpucgMmaKindMmaSync);
  // CHECK: info: #gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, workgroup_size = [64, 2, 1], subgroup_size = 32, pipeline_depth = 3{{.*}}mma_kind = mma_sync>
  printAttr("info", info);
  EXPECT(mlirAttributeIsAGpucgTranslationInfoAttr(info));
  MlirStringRef name =
      mlirGpucgPipelineGetName(mlirGpucgTranslationInfoAttrGetPipeline(info));
  // CHECK: pipeline MatmulTensorCoreMmaSync workgroup 64x2x1 subgroup 32 depth 3 store 1 mma 1
  printf("pipeline %.*s workgroup %" PRId64 "x%" PRId64 "x%" PRId64
         " subgroup %" PRId64 " depth %" PRId64 " store %" PRId64 " mma %d\n",
         (int)name.length, name.data,
         mlirGpucgTranslationInfoAttrGetWorkgroupSize(info, 0),
         mlirGpucgTranslationInfoAttrGetWorkgroupSize(info, 1),
         mlirGpucgTranslationInfoAttrGetWorkgroupSize(info, 2),
         mlirGpucgTranslationInfoAttrGetSubgroupSize(info),
         mlirGpucgTranslationInfoAttrGetPipelineDepth(info),
         mlirGpucgTranslationInfoAttrGetStoreStage(info),
         (int)mlirGpucgTranslationInfoAttrGetMmaKind(info));

  /* Optional keys left unset. */
  MlirAttribute bare = mlirGpucgTranslationInfoAttrGet(
      ctx, MlirGpucgPipelineVectorize, 0, NULL, 0, 1, 1, MlirGpucgMmaKindUnset);
  // CHECK: bare: #gpucg.translation_info<pipeline = Vectorize>
  // CHECK: unset: 0 sizes, subgroup 0, mma -1
  printAttr("bare", bare);
  printf("unset: %" PRIdPTR " sizes, subgroup %" PRId64 ", mma %d\n",
         mlirGpucgTranslationInfoAttrGetNumWorkgroupSizes(bare),
         mlirGpucgTranslationInfoAttrGetSubgroupSize(bare),
         (int)mlirGpucgTranslationInfoAttrGetMmaKind(bare));

  /* The launch shape, parsed (the builder leaves it at its defaults). */
  MlirAttribute launch = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString(
               "#gpucg.translation_info<pipeline = MatmulWgmma, "
               "workgroup_size = [384, 1, 1], workgroup_group_size = 1, "
               "persistent_workgroups = 66, cluster = [2, 1], "
               "staged_store = false>"));
  // CHECK: launch: group 1 persistent 66 cluster 2x1 staged 0
  printf("launch: group %" PRId64 " persistent %" PRId64 " cluster %" PRId64
         "x%" PRId64 " staged %d\n",
         mlirGpucgTranslationInfoAttrGetWorkgroupGroupSize(launch),
         mlirGpucgTranslationInfoAttrGetPersistentWorkgroups(launch),
         mlirGpucgTranslationInfoAttrGetClusterM(launch),
         mlirGpucgTranslationInfoAttrGetClusterN(launch),
         (int)mlirGpucgTranslationInfoAttrGetStagedStore(launch));
  // CHECK: defaults: group 1 persistent 0 cluster 1x1 staged 0
  printf("defaults: group %" PRId64 " persistent %" PRId64 " cluster %" PRId64
         "x%" PRId64 " staged %d\n",
         mlirGpucgTranslationInfoAttrGetWorkgroupGroupSize(info),
         mlirGpucgTranslationInfoAttrGetPersistentWorkgroups(info),
         mlirGpucgTranslationInfoAttrGetClusterM(info),
         mlirGpucgTranslationInfoAttrGetClusterN(info),
         (int)mlirGpucgTranslationInfoAttrGetStagedStore(info));
  MlirAttribute staged = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString(
               "#gpucg.translation_info<pipeline = MatmulWgmma, "
               "workgroup_group_size = 4, staged_store = true>"));
  // CHECK: staged: group 4 staged 1
  printf("staged: group %" PRId64 " staged %d\n",
         mlirGpucgTranslationInfoAttrGetWorkgroupGroupSize(staged),
         (int)mlirGpucgTranslationInfoAttrGetStagedStore(staged));
  /* Split-K: 1 unless given (on the mma.sync pipeline only). */
  MlirAttribute split = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString(
               "#gpucg.translation_info<pipeline = MatmulTensorCoreMmaSync, "
               "split_k = 4>"));
  // CHECK: split: 4 default 1
  printf("split: %" PRId64 " default %" PRId64 "\n",
         mlirGpucgTranslationInfoAttrGetSplitK(split),
         mlirGpucgTranslationInfoAttrGetSplitK(info));

  MlirGpucgPipeline parsed;
  EXPECT(mlirGpucgPipelineFromName(
      mlirStringRefCreateFromCString("MatmulTensorCore"), &parsed));
  EXPECT(parsed == MlirGpucgPipelineMatmulTensorCore);
  EXPECT(!mlirGpucgPipelineFromName(mlirStringRefCreateFromCString("Fast"),
                                    &parsed));

  /* The verifier's errors: an mma kind on a pipeline without tensor cores,
     a pipeline value out of range. */
  // CHECK: diagnostic: {{.*}}mma_kind
  // CHECK: invalid info: <null>
  printAttr("invalid info", mlirGpucgTranslationInfoAttrGet(
                                ctx, MlirGpucgPipelineVectorize, 0, NULL, 0, 1,
                                1, MlirGpucgMmaKindWmma));
  // CHECK: diagnostic: invalid gpucg pipeline value 42
  // CHECK: out of range: <null>
  printAttr("out of range",
            mlirGpucgTranslationInfoAttrGet(ctx, (MlirGpucgPipeline)42, 0, NULL,
                                            0, 1, 1, MlirGpucgMmaKindUnset));
}

// CHECK-LABEL: testCompilationInfo
static void testCompilationInfo(MlirContext ctx) {
  printf("testCompilationInfo\n");
  intptr_t levelSizes[] = {3};
  int64_t tileSizes[] = {64, 64, 32};
  int64_t workgroup[] = {64, 2, 1};
  MlirAttribute config =
      mlirGpucgLoweringConfigAttrGet(ctx, 1, levelSizes, tileSizes);
  MlirAttribute info = mlirGpucgTranslationInfoAttrGet(
      ctx, MlirGpucgPipelineMatmulTensorCore, 3, workgroup, 0, 2, 1,
      MlirGpucgMmaKindUnset);
  MlirAttribute compilation =
      mlirGpucgCompilationInfoAttrGet(ctx, config, info);
  // CHECK: compilation: #gpucg.compilation_info<lowering_config = #gpucg.lowering_config<tile_sizes = {{\[}}[64, 64, 32]]>, translation_info = #gpucg.translation_info<pipeline = MatmulTensorCore, workgroup_size = [64, 2, 1], pipeline_depth = 2>>
  printAttr("compilation", compilation);
  EXPECT(mlirAttributeIsAGpucgCompilationInfoAttr(compilation));
  EXPECT(mlirAttributeEqual(
      mlirGpucgCompilationInfoAttrGetLoweringConfig(compilation), config));
  EXPECT(mlirAttributeEqual(
      mlirGpucgCompilationInfoAttrGetTranslationInfo(compilation), info));
  /* The parts in the wrong order. */
  // CHECK: diagnostic: a #gpucg.compilation_info needs a #gpucg.lowering_config and a #gpucg.translation_info
  // CHECK: swapped: <null>
  printAttr("swapped", mlirGpucgCompilationInfoAttrGet(ctx, info, config));
}

// CHECK-LABEL: testTarget
static void testTarget(MlirContext ctx) {
  printf("testTarget\n");
  // CHECK: known chips: sm_75 sm_80 sm_86 sm_87 sm_89 sm_90 sm_90a
  printf("known chips:");
  for (intptr_t i = 0, e = mlirGpucgTargetGetNumKnownChips(); i < e; ++i) {
    MlirStringRef chip = mlirGpucgTargetGetKnownChip(i);
    printf(" %.*s", (int)chip.length, chip.data);
  }
  printf("\n");

  MlirAttribute target = mlirGpucgTargetAttrGetForChip(
      ctx, mlirStringRefCreateFromCString("sm_80"));
  EXPECT(mlirAttributeIsAGpucgTargetAttr(target));
  MlirStringRef chip = mlirGpucgTargetAttrGetChip(target);
  // CHECK: sm_80: cc 80 warp 32 threads 1024 smem 49152 optin 166912 regs 65536/255 sms 108
  printf("%.*s: cc %" PRId64 " warp %" PRId64 " threads %" PRId64
         " smem %" PRId64 " optin %" PRId64 " regs %" PRId64 "/%" PRId64
         " sms %" PRId64 "\n",
         (int)chip.length, chip.data,
         mlirGpucgTargetAttrGetComputeCapability(target),
         mlirGpucgTargetAttrGetWarpSize(target),
         mlirGpucgTargetAttrGetMaxThreadsPerBlock(target),
         mlirGpucgTargetAttrGetMaxSharedMemoryPerBlock(target),
         mlirGpucgTargetAttrGetMaxSharedMemoryPerBlockOptin(target),
         mlirGpucgTargetAttrGetMaxRegistersPerBlock(target),
         mlirGpucgTargetAttrGetMaxRegistersPerThread(target),
         mlirGpucgTargetAttrGetNumSms(target));

  /* The MMA shapes: print the first, then rebuild the target from its
     parts, which must give the same attribute. */
  intptr_t numShapes = mlirGpucgTargetAttrGetNumMmaShapes(target);
  EXPECT(numShapes > 0);
  MlirAttribute first = mlirGpucgTargetAttrGetMmaShape(target, 0);
  EXPECT(mlirAttributeIsAGpucgMmaShapeAttr(first));
  // CHECK: first shape: #gpucg.mma_shape<{{wmma|mma_sync}}, {{[0-9]+}}x{{[0-9]+}}x{{[0-9]+}}, {{.*}}>
  printAttr("first shape", first);
  MlirAttribute *shapes = malloc(sizeof(MlirAttribute) * (size_t)numShapes);
  for (intptr_t i = 0; i < numShapes; ++i)
    shapes[i] = mlirGpucgTargetAttrGetMmaShape(target, i);
  MlirAttribute rebuilt = mlirGpucgTargetAttrGet(
      ctx, chip, mlirGpucgTargetAttrGetWarpSize(target),
      mlirGpucgTargetAttrGetMaxThreadsPerBlock(target),
      mlirGpucgTargetAttrGetMaxSharedMemoryPerBlock(target),
      mlirGpucgTargetAttrGetMaxSharedMemoryPerBlockOptin(target),
      mlirGpucgTargetAttrGetMaxRegistersPerBlock(target),
      mlirGpucgTargetAttrGetMaxRegistersPerThread(target),
      mlirGpucgTargetAttrGetNumSms(target), numShapes, shapes);
  free(shapes);
  // CHECK: rebuilt equal: 1
  printf("rebuilt equal: %d\n", mlirAttributeEqual(rebuilt, target));

  MlirType f16 = mlirF16TypeGet(ctx);
  MlirType f32 = mlirF32TypeGet(ctx);
  MlirAttribute shape = mlirGpucgMmaShapeAttrGet(ctx, MlirGpucgMmaKindMmaSync,
                                                 16, 8, 16, f16, f16, f32);
  // CHECK: shape: #gpucg.mma_shape<mma_sync, 16x8x16, f16 * f16 -> f32>
  // CHECK: shape parts: 1 16x8x16
  printAttr("shape", shape);
  printf("shape parts: %d %" PRId64 "x%" PRId64 "x%" PRId64 "\n",
         (int)mlirGpucgMmaShapeAttrGetKind(shape),
         mlirGpucgMmaShapeAttrGetM(shape), mlirGpucgMmaShapeAttrGetN(shape),
         mlirGpucgMmaShapeAttrGetK(shape));
  EXPECT(mlirTypeEqual(mlirGpucgMmaShapeAttrGetCType(shape), f32));

  /* An unknown chip has no description; one built without its limits is
     an error. */
  // CHECK: sm_12: <null>
  printAttr("sm_12", mlirGpucgTargetAttrGetForChip(
                         ctx, mlirStringRefCreateFromCString("sm_12")));
  // CHECK: diagnostic: {{.*}}
  // CHECK: zero warp: <null>
  printAttr("zero warp", mlirGpucgTargetAttrGet(
                             ctx, mlirStringRefCreateFromCString("sm_80"), 0,
                             1024, 49152, 166912, 65536, 255, 108, 0, NULL));
}

/* Parsing goes through the same attributes. */
// CHECK-LABEL: testParse
static void testParse(MlirContext ctx) {
  printf("testParse\n");
  MlirAttribute parsed = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString(
               "#gpucg.lowering_config<tile_sizes = [[128, 128, 32]]>"));
  // CHECK: parsed is a lowering config: 1, tile 128
  printf("parsed is a lowering config: %d, tile %" PRId64 "\n",
         mlirAttributeIsAGpucgLoweringConfigAttr(parsed),
         mlirGpucgLoweringConfigAttrGetTileSize(parsed, 0, 0));
}

int main(void) {
  /* A plain context with the gpucg dialect registered, not loaded: the
     builders load it. */
  MlirContext ctx = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirGpucgRegisterDialects(registry);
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  testLoweringConfig(ctx);
  testTranslationInfo(ctx);
  testCompilationInfo(ctx);
  testTarget(ctx);
  testParse(ctx);

  /* The dialect handle (MLIR-C's registration convention). */
  MlirDialectHandle handle = mlirGetDialectHandle__gpucg__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(handle);
  // CHECK: dialect gpucg loaded: 1
  printf("dialect %.*s loaded: %d\n", (int)ns.length, ns.data,
         !mlirDialectIsNull(mlirDialectHandleLoadDialect(handle, ctx)));
  mlirContextDestroy(ctx);
  // CHECK: failures: 0
  printf("failures: %d\n", failures);
  return failures != 0;
}

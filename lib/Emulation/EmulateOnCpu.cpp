//===- EmulateOnCpu.cpp - GPU kernels on the CPU emulator runtime ---------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Test only. Runs what gpucg's pipelines hand to the NVVM lowering (a
// gpu.launch per kernel) on the CPU, with the GPU's semantics for what the
// CPU lacks, so that mlir-runner can check the numerics of every pipeline
// stage: barriers, warp collectives, tensor-core fragments, async copies.
//
// The per-thread code is kept as it is. Each launch body becomes a function
// that the runtime (runtime/emulator/Emulator*.c, libgpucg_emulator.so) runs
// once per thread, each thread a fiber under a deterministic scheduler; every
// GPU operation becomes a call into that runtime. docs/Emulation.md says why
// fibers rather than loop fission at barriers.
//
//===----------------------------------------------------------------------===//

#include "EmulatorRuntime.h"
#include "gpucg/Conversion/Passes.h"
#include "gpucg/Emulation/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_TESTEMULATEGPU
#define GEN_PASS_DEF_TESTEMULATELAUNCHES
#include "gpucg/Emulation/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;
using gpucg::EmulatorFunction;
using gpucg::EmulatorType;

/// On the loads and stores that emulate a WMMA load or store: the op they
/// stand for, the name race reports give them.
static constexpr StringLiteral kSourceOpAttr = "gpucg_emulator.source_op";
/// Marks the functions that hold an emulated launch's per-thread body.
static constexpr StringLiteral kThreadBodyAttr = "gpucg_emulator.thread_body";
/// Workgroup allocations start at multiples of this many bytes, as in
/// gpucg-build-gpu-launch.
static constexpr int64_t kWorkgroupAlignment = 16;
static constexpr int64_t kEmulatedWarpSize = 32;
static constexpr int64_t kWarpgroupThreads = 128;

static bool isWorkgroupMemory(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && gpu::GPUDialect::hasWorkgroupMemoryAddressSpace(memref);
}

/// Bytes of one element of a memref or vector of `type`, or failure for
/// types that do not fill whole bytes.
static FailureOr<int64_t> getElementBytes(Type type) {
  int64_t bits;
  if (auto vector = dyn_cast<VectorType>(type)) {
    if (vector.isScalable())
      return failure();
    bits = vector.getNumElements() *
           static_cast<int64_t>(vector.getElementTypeBitWidth());
  } else if (type.isIntOrFloat()) {
    bits = type.getIntOrFloatBitWidth();
  } else if (type.isIndex()) {
    bits = 64;
  } else {
    return failure();
  }
  if (bits == 0 || bits % 8 != 0)
    return failure();
  return bits / 8;
}

/// "file:line:col: op.name" for the op's first file location, so that the
/// emulator's reports point at the source op.
static std::string describeSite(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  FileLineColLoc fileLoc;
  op->getLoc()->walk([&](Location loc) {
    if (auto found = dyn_cast<FileLineColLoc>(loc)) {
      fileLoc = found;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (fileLoc)
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn() << ": ";
  else
    os << "<unknown location>: ";
  if (auto source = op->getAttrOfType<StringAttr>(kSourceOpAttr))
    os << source.getValue();
  else
    os << op->getName().getStringRef();
  return text;
}

namespace {
/// The runtime's entry points and the site strings of one module.
class EmulatorRuntime {
public:
  explicit EmulatorRuntime(ModuleOp module) : module(module) {}

  /// Declares every entry point the rewrites below call.
  void declareAll();

  /// Calls runtime function `name` (declared by declareAll).
  ValueRange call(OpBuilder &builder, Location loc, StringRef name,
                  ValueRange operands) {
    auto callee = module.lookupSymbol<func::FuncOp>(name);
    return func::CallOp::create(builder, loc, callee, operands).getResults();
  }

  /// A pointer to the site string of `op`, created once per op before any
  /// dialect conversion (which must not add symbols to the module).
  Value site(OpBuilder &builder, Operation *op);
  void createSite(Operation *op);

private:
  void declare(StringRef name, TypeRange inputs, TypeRange results,
               bool cInterface = false);

  ModuleOp module;
  DenseMap<Operation *, LLVM::GlobalOp> sites;
  unsigned numSites = 0;
};
} // namespace

void EmulatorRuntime::declare(StringRef name, TypeRange inputs,
                              TypeRange results, bool cInterface) {
  if (module.lookupSymbol(name))
    return;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), name,
                                   builder.getFunctionType(inputs, results));
  decl.setPrivate();
  if (cInterface)
    decl->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  builder.getUnitAttr());
}

void EmulatorRuntime::declareAll() {
  MLIRContext *ctx = module.getContext();
  const EmulatorFunction functions[] = {
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_configure),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_configure_cluster),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_thread_id),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_block_id),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_block_dim),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_grid_dim),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_cluster_size),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_lane_id),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_barrier),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_named_barrier),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_cluster_arrive),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_cluster_wait),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_shuffle),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_ldmatrix),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_mma_sync),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_wmma_mma),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_async_copy),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_check_copy_source),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_check_alignment),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_check_vector_bounds),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_async_commit),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_async_wait),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_access),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_global_store),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_global_load),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_global_atomic),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_fence),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_set_race_detection),
      // Hopper.
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_tensor_map),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_mbarrier_group),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_mbarrier_init),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_mbarrier_arrive),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_mbarrier_arrive_cluster),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_mbarrier_wait),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_tma_load),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_wgmma_init),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_wgmma),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_wgmma_wait),
      GPUCG_EMULATOR_FUNCTION(gpucg_emu_wgmma_store),
  };
  for (const EmulatorFunction &function : functions)
    declare(function.name, function.getType(ctx).getInputs(),
            function.getType(ctx).getResults());
  // The one entry point with a memref result, through MLIR's C interface
  // (_mlir_ciface_gpucg_emu_workgroup_memory in the header).
  Builder b(ctx);
  auto workgroup = gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
  declare("gpucg_emu_workgroup_memory", {},
          {MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                           MemRefLayoutAttrInterface(), workgroup)},
          /*cInterface=*/true);
}

void EmulatorRuntime::createSite(Operation *op) {
  if (sites.count(op))
    return;
  std::string text = describeSite(op);
  text.push_back('\0');
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  MLIRContext *ctx = module.getContext();
  auto type = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8), text.size());
  auto global = LLVM::GlobalOp::create(
      builder, module.getLoc(), type, /*isConstant=*/true,
      LLVM::Linkage::Internal, ("__gpucg_emu_site_" + Twine(numSites++)).str(),
      builder.getStringAttr(text));
  sites[op] = global;
}

Value EmulatorRuntime::site(OpBuilder &builder, Operation *op) {
  createSite(op);
  return LLVM::AddressOfOp::create(builder, op->getLoc(), sites[op]);
}

//===----------------------------------------------------------------------===//
// Addresses, fragments and small helpers
//===----------------------------------------------------------------------===//

static Value constI32(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), value);
}
static Value constI64(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value);
}
static Value toI64(OpBuilder &b, Location loc, Value index) {
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
}

/// The linear element index of `memref[indices]` from the memref's aligned
/// pointer, and the pointer, both as `index`.
static std::pair<Value, Value>
getLinearIndex(OpBuilder &b, Location loc, Value memref, ValueRange indices) {
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value linear = metadata.getOffset();
  for (auto [index, stride] : llvm::zip(indices, metadata.getStrides())) {
    Value scaled = arith::MulIOp::create(b, loc, index, stride);
    linear = arith::AddIOp::create(b, loc, linear, scaled);
  }
  Value pointer =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  return {linear, pointer};
}

/// The byte address of `memref[indices]` as i64.
static Value getElementAddress(OpBuilder &b, Location loc, Value memref,
                               ValueRange indices, int64_t elementBytes) {
  auto [linear, pointer] = getLinearIndex(b, loc, memref, indices);
  Value bytes = arith::ConstantIndexOp::create(b, loc, elementBytes);
  Value offset = arith::MulIOp::create(b, loc, linear, bytes);
  return toI64(b, loc, arith::AddIOp::create(b, loc, pointer, offset));
}

/// A thread-private buffer for one fragment of `type`, allocated at the
/// start of the body (never inside a loop, where each iteration would grow
/// the fiber's stack).
static Value createScratch(OpBuilder &b, func::FuncOp body, VectorType type) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&body.getBody().front());
  auto memrefType =
      MemRefType::get({type.getNumElements()}, type.getElementType());
  return memref::AllocaOp::create(b, body.getLoc(), memrefType);
}

static Value getScratchAddress(OpBuilder &b, Location loc, Value scratch) {
  return toI64(b, loc,
               memref::ExtractAlignedPointerAsIndexOp::create(b, loc, scratch));
}

/// Writes `value` (a 1-D or 2-D vector) row-major into `scratch`.
static void storeFragment(OpBuilder &b, Location loc, Value value,
                          Value scratch) {
  auto type = cast<VectorType>(value.getType());
  if (type.getRank() == 1) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    vector::StoreOp::create(b, loc, value, scratch, zero);
    return;
  }
  int64_t columns = type.getShape()[1];
  for (int64_t row = 0; row < type.getShape()[0]; ++row) {
    Value rowValue = vector::ExtractOp::create(b, loc, value, row);
    Value start = arith::ConstantIndexOp::create(b, loc, row * columns);
    vector::StoreOp::create(b, loc, rowValue, scratch, start);
  }
}

/// Reads a 1-D or 2-D vector of `type` row-major from `scratch`.
static Value loadFragment(OpBuilder &b, Location loc, VectorType type,
                          Value scratch) {
  if (type.getRank() == 1) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    return vector::LoadOp::create(b, loc, type, scratch, zero);
  }
  int64_t columns = type.getShape()[1];
  auto rowType = VectorType::get({columns}, type.getElementType());
  Value result = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  for (int64_t row = 0; row < type.getShape()[0]; ++row) {
    Value start = arith::ConstantIndexOp::create(b, loc, row * columns);
    Value rowValue = vector::LoadOp::create(b, loc, rowType, scratch, start);
    result = vector::InsertOp::create(b, loc, rowValue, result, row);
  }
  return result;
}

/// The runtime's code of an MMA operand type, or failure.
static FailureOr<EmulatorType> getMmaOperandType(Type type, bool tf32) {
  if (type.isF16())
    return EmulatorType::F16;
  if (type.isBF16())
    return EmulatorType::BF16;
  if (type.isF32())
    return tf32 ? EmulatorType::TF32 : EmulatorType::F32;
  if (type.isF64())
    return EmulatorType::F64;
  if (type.isSignlessInteger(8) || type.isSignedInteger(8))
    return EmulatorType::S8;
  if (type.isUnsignedInteger(8))
    return EmulatorType::U8;
  if (type.isInteger(32))
    return EmulatorType::S32;
  return failure();
}

/// The runtime's code of a wgmma operand type (f16, bf16, f8E4M3FN,
/// f8E5M2), or failure.
static FailureOr<EmulatorType> getWgmmaOperandType(Type type) {
  if (type.isF16())
    return EmulatorType::F16;
  if (type.isBF16())
    return EmulatorType::BF16;
  if (type.isTF32())
    return EmulatorType::TF32;
  if (isa<Float8E4M3FNType>(type))
    return EmulatorType::F8E4M3;
  if (isa<Float8E5M2Type>(type))
    return EmulatorType::F8E5M2;
  return failure();
}

//===----------------------------------------------------------------------===//
// Hopper: tensor maps on the host
//===----------------------------------------------------------------------===//

/// Whether `value` is a tensor map that rewriteHostTensorMaps made: a cast
/// of the runtime's i64 handle.
static bool isHostTensorMap(Value value) {
  auto cast = value.getDefiningOp<UnrealizedConversionCastOp>();
  return cast && isa<nvgpu::TensorMapDescriptorType>(value.getType()) &&
         cast->getNumOperands() == 1 &&
         cast->getOperand(0).getType().isInteger(64);
}

static int64_t getSwizzleBytes(nvgpu::TensorMapSwizzleKind kind) {
  switch (kind) {
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_NONE:
    return 0;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_32B:
    return 32;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_64B:
    return 64;
  case nvgpu::TensorMapSwizzleKind::SWIZZLE_128B:
    return 128;
  }
  llvm_unreachable("unknown swizzle");
}

/// Replaces each nvgpu.tma.create.descriptor outside the launches (where
/// gpucg-build-gpu-launch keeps them) by the runtime's tensor map of the
/// same memref, box and swizzle.
static LogicalResult rewriteHostTensorMaps(ModuleOp module,
                                           EmulatorRuntime &runtime) {
  SmallVector<nvgpu::TmaCreateDescriptorOp> creates;
  module.walk([&](nvgpu::TmaCreateDescriptorOp op) { creates.push_back(op); });
  OpBuilder b(module.getContext());
  for (nvgpu::TmaCreateDescriptorOp op : creates) {
    Location loc = op.getLoc();
    nvgpu::TensorMapDescriptorType type = op.getTensorMap().getType();
    if (op->getParentOfType<gpu::LaunchOp>())
      return op.emitOpError()
             << "creates a tensor map inside a gpu.launch; the emulator makes "
                "them on the host (run gpucg-build-gpu-launch first)";
    auto cast = op.getTensor().getDefiningOp<memref::CastOp>();
    auto source =
        cast ? dyn_cast<MemRefType>(cast.getSource().getType()) : MemRefType();
    if (!source || source.getRank() < 1 || source.getRank() > 5)
      return op.emitOpError()
             << "describes an unranked memref that is not a memref.cast of a "
                "ranked one of rank 1 to 5; the emulator reads the tensor's "
                "sizes and strides from the ranked memref";
    FailureOr<int64_t> elementBytes = getElementBytes(source.getElementType());
    if (failed(elementBytes))
      return op.emitOpError()
             << "describes elements of type " << source.getElementType()
             << "; the emulator copies whole bytes";
    if (type.getInterleave() !=
            nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE ||
        type.getOob() != nvgpu::TensorMapOOBKind::OOB_ZERO)
      return op.emitOpError()
             << "makes a tensor map of type " << type
             << "; the emulator models no interleave and zero fill";
    b.setInsertionPoint(op);
    auto metadata =
        memref::ExtractStridedMetadataOp::create(b, loc, cast.getSource());
    Value pointer = memref::ExtractAlignedPointerAsIndexOp::create(
        b, loc, cast.getSource());
    Value offset = arith::MulIOp::create(
        b, loc, metadata.getOffset(),
        arith::ConstantIndexOp::create(b, loc, *elementBytes));
    SmallVector<Value> operands = {
        toI64(b, loc, arith::AddIOp::create(b, loc, pointer, offset)),
        constI64(b, loc, source.getRank()), constI64(b, loc, *elementBytes),
        constI64(b, loc, getSwizzleBytes(type.getSwizzle()))};
    auto padded = [&](ValueRange values) {
      for (int64_t d = 0; d < 5; ++d)
        operands.push_back(d < static_cast<int64_t>(values.size())
                               ? toI64(b, loc, values[d])
                               : constI64(b, loc, 1));
    };
    padded(metadata.getSizes());
    padded(metadata.getStrides());
    padded(op.getBoxDimensions());
    Value handle = runtime.call(b, loc, "gpucg_emu_tensor_map", operands)[0];
    op.replaceAllUsesWith(
        UnrealizedConversionCastOp::create(b, loc, type, handle).getResult(0));
    op.erase();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Outlining each gpu.launch
//===----------------------------------------------------------------------===//

/// Values (per dimension) the runtime gives a thread for a launch's region
/// arguments.
static Value getThreadQuery(OpBuilder &b, EmulatorRuntime &runtime,
                            Location loc, StringRef name, int64_t dim) {
  Value result = runtime.call(b, loc, name, {constI64(b, loc, dim)})[0];
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), result);
}

/// Outlines `launch` into a per-thread body function and replaces it with
/// the host's configure call and a call of that body. `staticBytes` is set
/// to the bytes of its workgroup attributions, where CUDA places dynamic
/// shared memory after.
static FailureOr<func::FuncOp> outlineLaunch(gpu::LaunchOp launch,
                                             EmulatorRuntime &runtime,
                                             unsigned index, bool checkRaces,
                                             int64_t &staticBytes) {
  MLIRContext *ctx = launch.getContext();
  Location loc = launch.getLoc();
  auto parent = launch->getParentOfType<func::FuncOp>();
  if (!parent)
    return launch.emitOpError()
           << "is not in a func.func; the emulator outlines the launches of "
              "func.func hosts";
  if (!launch.getBody().hasOneBlock())
    return launch.emitOpError()
           << "has a body of " << launch.getBody().getBlocks().size()
           << " blocks; the emulator outlines single-block launch bodies";
  if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty())
    return launch.emitOpError() << "is asynchronous; the emulator runs "
                                   "synchronous launches only";
  if (launch.getNumPrivateAttributions() != 0)
    return launch.emitOpError()
           << "has private attributions; the emulator does not model them";

  // Workgroup memory: the static attributions, 16-byte aligned one after
  // another, then the dynamic size.
  SmallVector<int64_t> attributionOffsets;
  int64_t workgroupBytes = 0;
  for (BlockArgument attribution : launch.getWorkgroupAttributions()) {
    auto type = cast<MemRefType>(attribution.getType());
    FailureOr<int64_t> elementBytes = getElementBytes(type.getElementType());
    if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
        failed(elementBytes))
      return launch.emitOpError()
             << "has a workgroup attribution of type " << type
             << "; the emulator lays out static, identity-layout buffers of "
                "whole-byte elements";
    workgroupBytes = llvm::alignTo(workgroupBytes, kWorkgroupAlignment);
    attributionOffsets.push_back(workgroupBytes);
    workgroupBytes += type.getNumElements() * *elementBytes;
  }
  workgroupBytes = llvm::alignTo(workgroupBytes, kWorkgroupAlignment);
  staticBytes = workgroupBytes;

  // Values from above become the body's arguments; constants are cloned in.
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  SetVector<Value> arguments;
  SmallVector<Operation *> constants;
  for (Value value : captured) {
    Operation *def = value.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>())
      constants.push_back(def);
    else if (isHostTensorMap(value))
      // The runtime's handle (rewriteHostTensorMaps) crosses, the cast to
      // the tensor map type is cloned in.
      arguments.insert(def->getOperand(0));
    else
      arguments.insert(value);
  }

  OpBuilder b(ctx);
  std::string name =
      (parent.getSymName() + "_emulated_thread_" + Twine(index)).str();
  auto body = func::FuncOp::create(
      loc, name,
      b.getFunctionType(ValueRange(arguments.getArrayRef()).getTypes(), {}));
  body.setPrivate();
  // After the kernel, renamed if the name is taken.
  SymbolTable(parent->getParentOp())
      .insert(body, std::next(parent->getIterator()));
  body->setAttr(kThreadBodyAttr, b.getUnitAttr());
  Block *entry = body.addEntryBlock();
  b.setInsertionPointToStart(entry);
  IRMapping mapping;
  for (auto [value, arg] : llvm::zip(arguments, entry->getArguments()))
    mapping.map(value, arg);
  for (Operation *constant : constants)
    b.clone(*constant, mapping);
  for (Value value : captured)
    if (isHostTensorMap(value))
      b.clone(*value.getDefiningOp(), mapping);

  // The launch's region arguments, from the runtime.
  SmallVector<Value> regionValues;
  for (StringRef query : {"gpucg_emu_block_id", "gpucg_emu_thread_id",
                          "gpucg_emu_grid_dim", "gpucg_emu_block_dim"})
    for (int64_t dim = 0; dim < 3; ++dim)
      regionValues.push_back(getThreadQuery(b, runtime, loc, query, dim));
  if (launch.hasClusterSize()) {
    // What upstream's kernel outlining makes of them: gpu.cluster_id and
    // gpu.cluster_dim (the number of clusters in the grid, not the
    // cluster's size the launch names).
    SmallVector<Value> clusterIds, clusterDims;
    for (int64_t dim = 0; dim < 3; ++dim) {
      Value size =
          getThreadQuery(b, runtime, loc, "gpucg_emu_cluster_size", dim);
      clusterIds.push_back(
          arith::DivUIOp::create(b, loc, regionValues[dim], size));
      clusterDims.push_back(
          arith::DivUIOp::create(b, loc, regionValues[6 + dim], size));
    }
    llvm::append_range(regionValues, clusterIds);
    llvm::append_range(regionValues, clusterDims);
  }
  if (!attributionOffsets.empty() || launch.getDynamicSharedMemorySize()) {
    Value memory = runtime.call(b, loc, "gpucg_emu_workgroup_memory", {})[0];
    for (auto [attribution, offset] :
         llvm::zip(launch.getWorkgroupAttributions(), attributionOffsets)) {
      Value start = arith::ConstantIndexOp::create(b, loc, offset);
      regionValues.push_back(
          memref::ViewOp::create(b, attribution.getLoc(), attribution.getType(),
                                 memory, start, ValueRange()));
    }
  }

  Block &launchBody = launch.getBody().front();
  for (Value value : captured)
    replaceAllUsesInRegionWith(value, mapping.lookup(value), launch.getBody());
  Operation *terminator = launchBody.getTerminator();
  IRRewriter rewriter(ctx);
  rewriter.setInsertionPoint(terminator);
  func::ReturnOp::create(rewriter, terminator->getLoc());
  rewriter.eraseOp(terminator);
  rewriter.mergeBlocks(&launchBody, entry, regionValues);

  // The host side: configure, then call the body (made a launch of all
  // threads by gpucg-test-emulate-launches after the LLVM conversion).
  rewriter.setInsertionPoint(launch);
  SmallVector<Value> configuration;
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  for (Value value : {grid.x, grid.y, grid.z, block.x, block.y, block.z})
    configuration.push_back(toI64(rewriter, loc, value));
  Value bytes = constI64(rewriter, loc, workgroupBytes);
  if (Value dynamic = launch.getDynamicSharedMemorySize()) {
    Value extended =
        arith::ExtUIOp::create(rewriter, loc, rewriter.getI64Type(), dynamic);
    bytes = arith::AddIOp::create(rewriter, loc, bytes, extended);
  }
  configuration.push_back(bytes);
  runtime.call(rewriter, loc, "gpucg_emu_set_race_detection",
               {constI32(rewriter, loc, checkRaces)});
  runtime.call(rewriter, loc, "gpucg_emu_configure", configuration);
  if (std::optional<gpu::KernelDim3> cluster =
          launch.getClusterSizeOperandValues())
    runtime.call(rewriter, loc, "gpucg_emu_configure_cluster",
                 {toI64(rewriter, loc, cluster->x),
                  toI64(rewriter, loc, cluster->y),
                  toI64(rewriter, loc, cluster->z)});
  func::CallOp::create(rewriter, loc, body, arguments.getArrayRef());
  rewriter.eraseOp(launch);
  return body;
}

//===----------------------------------------------------------------------===//
// GPU ops without type changes
//===----------------------------------------------------------------------===//

namespace {
/// Rewrites the GPU ops of one outlined body into runtime calls.
class BodyRewriter {
public:
  BodyRewriter(func::FuncOp body, EmulatorRuntime &runtime,
               int64_t staticWorkgroupBytes)
      : body(body), runtime(runtime), builder(body.getContext()),
        staticWorkgroupBytes(staticWorkgroupBytes) {}

  LogicalResult rewriteSimpleOps();

private:
  LogicalResult rewrite(Operation *op);
  LogicalResult rewriteClusterQuery(Operation *op);
  LogicalResult rewriteShuffle(gpu::ShuffleOp op);
  LogicalResult rewriteLdMatrix(nvgpu::LdMatrixOp op);
  LogicalResult rewriteMmaSync(nvgpu::MmaSyncOp op);

  func::FuncOp body;
  EmulatorRuntime &runtime;
  IRRewriter builder;
  /// Where dynamic shared memory starts: after the static attributions.
  int64_t staticWorkgroupBytes;
};
} // namespace

LogicalResult BodyRewriter::rewriteSimpleOps() {
  SmallVector<Operation *> ops;
  body.walk([&](Operation *op) {
    if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
            gpu::LaneIdOp, gpu::ClusterIdOp, gpu::ClusterBlockIdOp,
            gpu::ClusterDimOp, gpu::ClusterDimBlocksOp, NVVM::ClusterId,
            NVVM::ClusterDim, gpu::BarrierOp, NVVM::BarrierOp,
            NVVM::ClusterArriveOp, NVVM::ClusterArriveRelaxedOp,
            NVVM::ClusterWaitOp, gpu::ShuffleOp, gpu::DynamicSharedMemoryOp,
            nvgpu::LdMatrixOp, nvgpu::MmaSyncOp, NVVM::WgmmaWaitGroupSyncOp,
            NVVM::SetMaxRegisterOp, NVVM::FenceMbarrierInitOp,
            NVVM::FenceProxyOp, NVVM::MembarOp, nvgpu::TmaPrefetchOp>(op))
      ops.push_back(op);
  });
  for (Operation *op : ops)
    if (failed(rewrite(op)))
      return failure();
  return success();
}

LogicalResult BodyRewriter::rewrite(Operation *op) {
  Location loc = op->getLoc();
  builder.setInsertionPoint(op);
  auto replaceWithQuery = [&](StringRef name, gpu::Dimension dim) {
    Value value =
        getThreadQuery(builder, runtime, loc, name, static_cast<int64_t>(dim));
    builder.replaceOp(op, value);
    return success();
  };
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](gpu::ThreadIdOp id) {
        return replaceWithQuery("gpucg_emu_thread_id", id.getDimension());
      })
      .Case([&](gpu::BlockIdOp id) {
        return replaceWithQuery("gpucg_emu_block_id", id.getDimension());
      })
      .Case([&](gpu::BlockDimOp id) {
        return replaceWithQuery("gpucg_emu_block_dim", id.getDimension());
      })
      .Case([&](gpu::GridDimOp id) {
        return replaceWithQuery("gpucg_emu_grid_dim", id.getDimension());
      })
      .Case([&](gpu::LaneIdOp) {
        Value lane = runtime.call(builder, loc, "gpucg_emu_lane_id", {})[0];
        builder.replaceOp(op, arith::IndexCastOp::create(
                                  builder, loc, builder.getIndexType(), lane));
        return success();
      })
      .Case<gpu::ClusterIdOp, gpu::ClusterBlockIdOp, gpu::ClusterDimOp,
            gpu::ClusterDimBlocksOp, NVVM::ClusterId, NVVM::ClusterDim>(
          [&](Operation *) { return rewriteClusterQuery(op); })
      .Case([&](gpu::BarrierOp) {
        runtime.call(builder, loc, "gpucg_emu_barrier",
                     {runtime.site(builder, op)});
        builder.eraseOp(op);
        return success();
      })
      .Case([&](NVVM::BarrierOp barrier) -> LogicalResult {
        if (barrier.getReductionOp() || barrier.getRes())
          return op->emitOpError()
                 << "reduces a predicate over the barrier's threads; the "
                    "emulator models nvvm.barrier without a reduction";
        // bar.sync 0 of all threads is gpu.barrier; the others count
        // arrivals (0 threads: all of the workgroup; the verifier wants an
        // id with a count).
        Value id = barrier.getBarrierId(),
              threads = barrier.getNumberOfThreads();
        if (!id && !threads)
          runtime.call(builder, loc, "gpucg_emu_barrier",
                       {runtime.site(builder, op)});
        else
          runtime.call(builder, loc, "gpucg_emu_named_barrier",
                       {id ? id : constI32(builder, loc, 0),
                        threads ? threads : constI32(builder, loc, 0),
                        runtime.site(builder, op)});
        builder.eraseOp(op);
        return success();
      })
      // barrier.cluster.arrive's .relaxed only drops the memory ordering,
      // which the emulator's one memory does not need.
      .Case<NVVM::ClusterArriveOp, NVVM::ClusterArriveRelaxedOp>(
          [&](Operation *) {
            runtime.call(builder, loc, "gpucg_emu_cluster_arrive",
                         {runtime.site(builder, op)});
            builder.eraseOp(op);
            return success();
          })
      .Case([&](NVVM::ClusterWaitOp) {
        runtime.call(builder, loc, "gpucg_emu_cluster_wait",
                     {runtime.site(builder, op)});
        builder.eraseOp(op);
        return success();
      })
      .Case([&](gpu::DynamicSharedMemoryOp shared) {
        Value memory =
            runtime.call(builder, loc, "gpucg_emu_workgroup_memory", {})[0];
        if (staticWorkgroupBytes != 0) {
          // The bytes after the launch's workgroup attributions.
          Value start = arith::ConstantIndexOp::create(builder, loc,
                                                       staticWorkgroupBytes);
          Value total = memref::DimOp::create(builder, loc, memory, 0);
          Value size = arith::SubIOp::create(builder, loc, total, start);
          memory = memref::ViewOp::create(builder, loc, memory.getType(),
                                          memory, start, ValueRange{size});
        }
        if (memory.getType() != shared.getType())
          memory =
              memref::CastOp::create(builder, loc, shared.getType(), memory);
        builder.replaceOp(op, memory);
        return success();
      })
      .Case([&](gpu::ShuffleOp shuffle) { return rewriteShuffle(shuffle); })
      .Case([&](nvgpu::LdMatrixOp ld) { return rewriteLdMatrix(ld); })
      .Case([&](nvgpu::MmaSyncOp mma) { return rewriteMmaSync(mma); })
      .Case([&](NVVM::WgmmaWaitGroupSyncOp wait) {
        runtime.call(builder, loc, "gpucg_emu_wgmma_wait",
                     {constI32(builder, loc, wait.getGroup()),
                      runtime.site(builder, op)});
        builder.eraseOp(op);
        return success();
      })
      // A fence at gpu or system scope orders global memory between
      // workgroups, which the emulator checks (gpucg_emu_global_load and
      // friends); one at CTA scope orders what a workgroup's barriers
      // already order here.
      .Case([&](NVVM::MembarOp fence) {
        if (fence.getScope() != NVVM::MemScopeKind::CTA)
          runtime.call(builder, loc, "gpucg_emu_fence",
                       {runtime.site(builder, op)});
        builder.eraseOp(op);
        return success();
      })
      // Register reallocation, the fences between the generic and the
      // async proxy (the emulator's memory has one) and tensor-map
      // prefetches change no value the emulator computes.
      .Case<NVVM::SetMaxRegisterOp, NVVM::FenceMbarrierInitOp,
            NVVM::FenceProxyOp, nvgpu::TmaPrefetchOp>([&](Operation *) {
        builder.eraseOp(op);
        return success();
      })
      .Default([](Operation *) { return success(); });
}

/// The cluster's ids and sizes from the block id, the grid size and the
/// cluster size (PTX %cluster_nctaid) the runtime gives.
LogicalResult BodyRewriter::rewriteClusterQuery(Operation *op) {
  Location loc = op->getLoc();
  auto query = [&](StringRef name, int64_t dim) {
    return getThreadQuery(builder, runtime, loc, name, dim);
  };
  auto clusterSize = [&](int64_t dim) {
    return query("gpucg_emu_cluster_size", dim);
  };
  // Each query a statement of its own: calls in the order written.
  auto blockInCluster = [&](int64_t dim) -> Value {
    Value block = query("gpucg_emu_block_id", dim);
    return arith::RemUIOp::create(builder, loc, block, clusterSize(dim));
  };
  auto dimOf = [](auto indexOp) {
    return static_cast<int64_t>(indexOp.getDimension());
  };
  Value result =
      TypeSwitch<Operation *, Value>(op)
          .Case([&](gpu::ClusterIdOp id) -> Value {
            int64_t dim = dimOf(id);
            Value block = query("gpucg_emu_block_id", dim);
            return arith::DivUIOp::create(builder, loc, block,
                                          clusterSize(dim));
          })
          .Case([&](gpu::ClusterBlockIdOp id) {
            return blockInCluster(dimOf(id));
          })
          .Case([&](gpu::ClusterDimOp dim) -> Value {
            // The number of clusters in the grid (PTX %nclusterid).
            int64_t d = dimOf(dim);
            Value grid = query("gpucg_emu_grid_dim", d);
            return arith::DivUIOp::create(builder, loc, grid, clusterSize(d));
          })
          .Case([&](gpu::ClusterDimBlocksOp dim) {
            return clusterSize(dimOf(dim));
          })
          .Case([&](NVVM::ClusterId) -> Value {
            // %cluster_ctarank: x fastest within the cluster.
            Value x = blockInCluster(0), y = blockInCluster(1),
                  z = blockInCluster(2);
            Value sizeX = clusterSize(0), sizeY = clusterSize(1);
            Value zRows = arith::MulIOp::create(builder, loc, z, sizeY);
            Value zy = arith::AddIOp::create(builder, loc, zRows, y);
            Value zyRows = arith::MulIOp::create(builder, loc, zy, sizeX);
            return arith::AddIOp::create(builder, loc, zyRows, x);
          })
          .Case([&](NVVM::ClusterDim) -> Value {
            // %cluster_nctarank: the blocks of the cluster.
            Value x = clusterSize(0), y = clusterSize(1), z = clusterSize(2);
            Value xy = arith::MulIOp::create(builder, loc, x, y);
            return arith::MulIOp::create(builder, loc, xy, z);
          });
  Type type = op->getResult(0).getType();
  if (type != result.getType())
    result = arith::IndexCastUIOp::create(builder, loc, type, result);
  builder.replaceOp(op, result);
  return success();
}

LogicalResult BodyRewriter::rewriteShuffle(gpu::ShuffleOp op) {
  Type type = op.getValue().getType();
  if (!type.isInteger(32) && !type.isF32())
    return op.emitOpError() << "shuffles " << type
                            << "; the emulator shuffles 32-bit values (i32, "
                               "f32), as the NVVM lowering does";
  Location loc = op.getLoc();
  int32_t mode = 0;
  switch (op.getMode()) {
  case gpu::ShuffleMode::XOR:
    mode = 0;
    break;
  case gpu::ShuffleMode::UP:
    mode = 1;
    break;
  case gpu::ShuffleMode::DOWN:
    mode = 2;
    break;
  case gpu::ShuffleMode::IDX:
    mode = 3;
    break;
  }
  Value bits = op.getValue();
  if (type.isF32())
    bits = arith::BitcastOp::create(builder, loc, builder.getI32Type(), bits);
  Value packed = runtime.call(builder, loc, "gpucg_emu_shuffle",
                              {bits, op.getOffset(), op.getWidth(),
                               constI32(builder, loc, mode),
                               runtime.site(builder, op)})[0];
  Value result =
      arith::TruncIOp::create(builder, loc, builder.getI32Type(), packed);
  if (type.isF32())
    result = arith::BitcastOp::create(builder, loc, type, result);
  Value high =
      arith::ShRUIOp::create(builder, loc, packed, constI64(builder, loc, 32));
  Value valid =
      arith::TruncIOp::create(builder, loc, builder.getI1Type(), high);
  builder.replaceOp(op, {result, valid});
  return success();
}

LogicalResult BodyRewriter::rewriteLdMatrix(nvgpu::LdMatrixOp op) {
  Location loc = op.getLoc();
  VectorType type = op.getRes().getType();
  auto memrefType = cast<MemRefType>(op.getSrcMemref().getType());
  FailureOr<int64_t> elementBytes =
      getElementBytes(memrefType.getElementType());
  int64_t registerBits =
      type.getRank() == 2
          ? type.getShape()[1] *
                static_cast<int64_t>(type.getElementTypeBitWidth())
          : 0;
  if (failed(elementBytes) || registerBits != 32 ||
      type.getShape()[0] != op.getNumTiles())
    return op.emitOpError()
           << "loads " << type << " from " << memrefType
           << "; the emulator takes one 32-bit register per 8x8 b16 tile";
  Value scratch = createScratch(builder, body, type);
  Value row = getElementAddress(builder, loc, op.getSrcMemref(),
                                op.getIndices(), *elementBytes);
  runtime.call(builder, loc, "gpucg_emu_ldmatrix",
               {row, constI32(builder, loc, op.getNumTiles()),
                constI32(builder, loc, op.getTranspose()),
                getScratchAddress(builder, loc, scratch),
                runtime.site(builder, op)});
  builder.replaceOp(op, loadFragment(builder, loc, type, scratch));
  return success();
}

LogicalResult BodyRewriter::rewriteMmaSync(nvgpu::MmaSyncOp op) {
  Location loc = op.getLoc();
  auto aType = cast<VectorType>(op.getMatrixA().getType());
  auto cType = cast<VectorType>(op.getMatrixC().getType());
  bool tf32 = aType.getElementType().isF32();
  FailureOr<EmulatorType> abCode =
      getMmaOperandType(aType.getElementType(), tf32);
  FailureOr<EmulatorType> cCode =
      getMmaOperandType(cType.getElementType(), /*tf32=*/false);
  if (failed(abCode) || failed(cCode) || *abCode == EmulatorType::S32)
    return op.emitOpError() << "multiplies " << aType << " into " << cType
                            << "; the emulator has no such mma.sync";
  std::array<int64_t, 3> shape = op.getMmaShapeAsArray();
  SmallVector<Value> addresses;
  for (Value operand : {op.getMatrixA(), op.getMatrixB(), op.getMatrixC()}) {
    auto type = cast<VectorType>(operand.getType());
    Value scratch = createScratch(builder, body, type);
    storeFragment(builder, loc, operand, scratch);
    addresses.push_back(getScratchAddress(builder, loc, scratch));
  }
  Value result = createScratch(builder, body, cType);
  addresses.push_back(getScratchAddress(builder, loc, result));
  SmallVector<Value> operands = {
      constI32(builder, loc, shape[0]), constI32(builder, loc, shape[1]),
      constI32(builder, loc, shape[2]),
      constI32(builder, loc, static_cast<int32_t>(*abCode)),
      constI32(builder, loc, static_cast<int32_t>(*cCode))};
  llvm::append_range(operands, addresses);
  operands.push_back(runtime.site(builder, op));
  runtime.call(builder, loc, "gpucg_emu_mma_sync", operands);
  builder.replaceOp(op, loadFragment(builder, loc, op.getType(), result));
  return success();
}

//===----------------------------------------------------------------------===//
// Async copies and WMMA: type conversions (tokens and fragments cross loops)
//===----------------------------------------------------------------------===//

/// A lane's share of a WMMA fragment: rows * cols / 32 elements, lane L
/// holding elements [L*E, L*E+E) of the row-major matrix.
static VectorType getLaneFragmentType(gpu::MMAMatrixType type) {
  ArrayRef<int64_t> shape = type.getShape();
  return VectorType::get({shape[0] * shape[1] / kEmulatedWarpSize},
                         type.getElementType());
}

static bool isEmulatableFragment(gpu::MMAMatrixType type) {
  ArrayRef<int64_t> shape = type.getShape();
  return shape.size() == 2 && (shape[0] * shape[1]) % kEmulatedWarpSize == 0;
}

namespace {
/// What a warpgroup descriptor encodes of its tile's layout, as MLIR 22's
/// lowering of nvgpu.warpgroup.generate.descriptor builds it from the
/// tensor map: the swizzle, and the leading byte offset (an MN-major
/// tile's bytes from one swizzle-wide block of columns to the next), which
/// is the map's box rows times the swizzle.
struct WgmmaTileLayout {
  int64_t swizzleBytes = 0;
  int64_t leadingBytes = 0;
};

struct EmulationContext {
  func::FuncOp body;
  EmulatorRuntime *runtime;
  /// How each nvgpu.warpgroup.mma's A and B tiles lie in workgroup memory,
  /// read from their descriptors' tensor maps before the conversion
  /// replaces the descriptors.
  DenseMap<Operation *, std::pair<WgmmaTileLayout, WgmmaTileLayout>>
      wgmmaLayouts;
};

/// A conversion pattern of an emulated body that calls the runtime.
template <typename Op> struct EmulationPattern : OpConversionPattern<Op> {
  EmulationPattern(TypeConverter &converter, MLIRContext *ctx,
                   EmulationContext &emulation)
      : OpConversionPattern<Op>(converter, ctx), emulation(emulation) {}
  EmulationContext &emulation;
};

struct AsyncCopyPattern : EmulationPattern<nvgpu::DeviceAsyncCopyOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::DeviceAsyncCopyOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dstType = cast<MemRefType>(op.getDst().getType());
    FailureOr<int64_t> elementBytes = getElementBytes(dstType.getElementType());
    if (failed(elementBytes))
      return rewriter.notifyMatchFailure(op, "element type");
    int64_t elements = op.getDstElements().getZExtValue();
    Value dst = getElementAddress(rewriter, loc, adaptor.getDst(),
                                  adaptor.getDstIndices(), *elementBytes);
    Value src = getElementAddress(rewriter, loc, adaptor.getSrc(),
                                  adaptor.getSrcIndices(), *elementBytes);
    Value dstBytes = constI64(rewriter, loc, elements * *elementBytes);
    Value srcBytes = dstBytes;
    Value srcCount = constI64(rewriter, loc, elements);
    if (Value srcElements = adaptor.getSrcElements()) {
      srcCount = toI64(rewriter, loc, srcElements);
      srcBytes = arith::MulIOp::create(rewriter, loc, srcCount,
                                       constI64(rewriter, loc, *elementBytes));
    }
    // What the copy reads must lie inside its source memref: each outer
    // index inside its dimension, the innermost [index, index + count)
    // inside the row. A zero-padded copy whose source size ran past the
    // edge of the matrix would read another row (or fault) on a GPU and
    // still produce the right numbers here, the other operand's padding
    // being zero: only this check sees it.
    auto metadata = memref::ExtractStridedMetadataOp::create(rewriter, loc,
                                                             adaptor.getSrc());
    int64_t rank = metadata.getSizes().size();
    Value zero = constI64(rewriter, loc, 0);
    Value one = constI64(rewriter, loc, 1);
    Value reads = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sgt, srcCount, zero);
    Value outerCount = arith::SelectOp::create(rewriter, loc, reads, one, zero);
    Value site = emulation.runtime->site(rewriter, op);
    for (auto [dim, size, index] :
         llvm::enumerate(metadata.getSizes(), adaptor.getSrcIndices())) {
      bool innermost = static_cast<int64_t>(dim) == rank - 1;
      emulation.runtime->call(
          rewriter, loc, "gpucg_emu_check_copy_source",
          {constI32(rewriter, loc, dim), constI32(rewriter, loc, rank),
           toI64(rewriter, loc, index), innermost ? srcCount : outerCount,
           toI64(rewriter, loc, size), site});
    }
    emulation.runtime->call(rewriter, loc, "gpucg_emu_async_copy",
                            {dst, src, dstBytes, srcBytes, site});
    // The token means nothing once groups are numbered by the runtime.
    rewriter.replaceOp(op, constI32(rewriter, loc, 0));
    return success();
  }
};

struct AsyncCreateGroupPattern
    : EmulationPattern<nvgpu::DeviceAsyncCreateGroupOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::DeviceAsyncCreateGroupOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // cp.async.commit_group commits every copy of the thread not yet in a
    // group, whatever tokens the op names (as the NVVM lowering does).
    rewriter.replaceOp(op,
                       emulation.runtime->call(rewriter, op.getLoc(),
                                               "gpucg_emu_async_commit", {}));
    return success();
  }
};

struct AsyncWaitPattern : EmulationPattern<nvgpu::DeviceAsyncWaitOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::DeviceAsyncWaitOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // Without numGroups, the NVVM lowering waits for all groups.
    int64_t pending = op.getNumGroups() ? *op.getNumGroups() : 0;
    emulation.runtime->call(rewriter, op.getLoc(), "gpucg_emu_async_wait",
                            {constI32(rewriter, op.getLoc(), pending)});
    rewriter.eraseOp(op);
    return success();
  }
};

/// The linear element index of element (row, col) of a WMMA fragment stored
/// from `linear` with leading dimension `ld` (transposed: column-major).
static Value getFragmentElementIndex(OpBuilder &b, Location loc, Value linear,
                                     Value lane, int64_t element,
                                     int64_t perLane, int64_t columns,
                                     int64_t ld, bool transpose) {
  AffineExpr base, laneExpr;
  bindSymbols(b.getContext(), base, laneExpr);
  AffineExpr flat = laneExpr * perLane + element;
  AffineExpr row = flat.floorDiv(columns), col = flat % columns;
  AffineExpr offset = transpose ? col * ld + row : row * ld + col;
  return affine::AffineApplyOp::create(
      b, loc, AffineMap::get(0, 2, base + offset), ValueRange{linear, lane});
}

/// A 1-D view of the whole buffer under `memref`, to index elements by
/// their linear index.
static Value getLinearView(OpBuilder &b, Location loc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  auto metadata = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  auto viewType =
      MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  // The size only bounds what the view may touch; the linear indices come
  // from the original memref's own offset and strides.
  return memref::ReinterpretCastOp::create(
      b, loc, viewType, metadata.getBaseBuffer(), /*offset=*/0,
      /*sizes=*/ArrayRef<int64_t>{std::numeric_limits<int32_t>::max()},
      /*strides=*/ArrayRef<int64_t>{1});
}

/// Where the calling lane's elements of WMMA fragment `type`, stored from
/// `memref[indices]` with leading dimension `ld` (`transpose`: column-major),
/// are: a 1-D view of the buffer and each element's index in it. Lane L
/// owns elements [L*E, (L+1)*E) of the row-major fragment.
static std::pair<Value, SmallVector<Value>>
getLaneFragmentElements(OpBuilder &b, Location loc, EmulatorRuntime &runtime,
                        Value memref, ValueRange indices,
                        gpu::MMAMatrixType type, int64_t ld, bool transpose) {
  Value lane = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      runtime.call(b, loc, "gpucg_emu_lane_id", {})[0]);
  Value linear = getLinearIndex(b, loc, memref, indices).first;
  Value view = getLinearView(b, loc, memref);
  int64_t perLane = getLaneFragmentType(type).getNumElements();
  SmallVector<Value> elements;
  for (int64_t element = 0; element < perLane; ++element)
    elements.push_back(getFragmentElementIndex(b, loc, linear, lane, element,
                                               perLane, type.getShape()[1], ld,
                                               transpose));
  return {view, elements};
}

struct WmmaLoadPattern : EmulationPattern<gpu::SubgroupMmaLoadMatrixOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaLoadMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<gpu::MMAMatrixType>(op.getRes().getType());
    if (!isEmulatableFragment(type))
      return rewriter.notifyMatchFailure(op, "fragment shape");
    Location loc = op.getLoc();
    auto [view, elements] = getLaneFragmentElements(
        rewriter, loc, *emulation.runtime, adaptor.getSrcMemref(),
        adaptor.getIndices(), type, op.getLeadDimension().getSExtValue(),
        op.getTranspose().has_value());
    Value result = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(getLaneFragmentType(type)));
    for (auto [element, index] : llvm::enumerate(elements)) {
      auto value = memref::LoadOp::create(rewriter, loc, view, index);
      value->setAttr(kSourceOpAttr,
                     rewriter.getStringAttr(op->getName().getStringRef()));
      result = vector::InsertOp::create(rewriter, loc, value, result,
                                        static_cast<int64_t>(element));
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct WmmaStorePattern : EmulationPattern<gpu::SubgroupMmaStoreMatrixOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaStoreMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<gpu::MMAMatrixType>(op.getSrc().getType());
    if (!isEmulatableFragment(type))
      return rewriter.notifyMatchFailure(op, "fragment shape");
    Location loc = op.getLoc();
    auto [view, elements] = getLaneFragmentElements(
        rewriter, loc, *emulation.runtime, adaptor.getDstMemref(),
        adaptor.getIndices(), type, op.getLeadDimension().getSExtValue(),
        op.getTranspose().has_value());
    for (auto [element, index] : llvm::enumerate(elements)) {
      Value value = vector::ExtractOp::create(rewriter, loc, adaptor.getSrc(),
                                              static_cast<int64_t>(element));
      auto store = memref::StoreOp::create(rewriter, loc, value, view, index);
      store->setAttr(kSourceOpAttr,
                     rewriter.getStringAttr(op->getName().getStringRef()));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct WmmaConstantPattern
    : OpConversionPattern<gpu::SubgroupMmaConstantMatrixOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaConstantMatrixOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<gpu::MMAMatrixType>(op.getRes().getType());
    if (!isEmulatableFragment(type))
      return rewriter.notifyMatchFailure(op, "fragment shape");
    rewriter.replaceOpWithNewOp<vector::BroadcastOp>(
        op, getLaneFragmentType(type), adaptor.getValue());
    return success();
  }
};

struct WmmaComputePattern : EmulationPattern<gpu::SubgroupMmaComputeOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaComputeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto aType = cast<gpu::MMAMatrixType>(op.getOpA().getType());
    auto cType = cast<gpu::MMAMatrixType>(op.getOpC().getType());
    FailureOr<EmulatorType> abCode =
        getMmaOperandType(aType.getElementType(), /*tf32=*/true);
    FailureOr<EmulatorType> cCode =
        getMmaOperandType(cType.getElementType(), /*tf32=*/false);
    if (failed(abCode) || failed(cCode))
      return rewriter.notifyMatchFailure(op, "types");
    Location loc = op.getLoc();
    // The fragments hold the logical matrices: a load with `transpose`
    // already read A or B column-major, so a_transpose/b_transpose only
    // restate how they were loaded.
    SmallVector<Value> addresses;
    for (Value operand :
         {adaptor.getOpA(), adaptor.getOpB(), adaptor.getOpC()}) {
      Value scratch = createScratch(rewriter, emulation.body,
                                    cast<VectorType>(operand.getType()));
      storeFragment(rewriter, loc, operand, scratch);
      addresses.push_back(getScratchAddress(rewriter, loc, scratch));
    }
    VectorType resultType = getLaneFragmentType(cType);
    Value result = createScratch(rewriter, emulation.body, resultType);
    addresses.push_back(getScratchAddress(rewriter, loc, result));
    int64_t m = aType.getShape()[0], k = aType.getShape()[1],
            n = cType.getShape()[1];
    SmallVector<Value> operands = {
        constI32(rewriter, loc, m), constI32(rewriter, loc, n),
        constI32(rewriter, loc, k),
        constI32(rewriter, loc, static_cast<int32_t>(*abCode)),
        constI32(rewriter, loc, static_cast<int32_t>(*cCode))};
    llvm::append_range(operands, addresses);
    operands.push_back(emulation.runtime->site(rewriter, op));
    emulation.runtime->call(rewriter, loc, "gpucg_emu_wmma_mma", operands);
    rewriter.replaceOp(op, loadFragment(rewriter, loc, resultType, result));
    return success();
  }
};

/// A choice between two WMMA fragments (what the software pipeliner leaves
/// in the epilogue of a K loop of run-time length: a step of an iteration
/// that does not exist keeps the accumulator): the same choice between the
/// lane's parts.
struct WmmaSelectPattern : OpConversionPattern<arith::SelectOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(arith::SelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa<gpu::MMAMatrixType>(op.getType()))
      return rewriter.notifyMatchFailure(op, "not a fragment");
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, adaptor.getCondition(),
                                                 adaptor.getTrueValue(),
                                                 adaptor.getFalseValue());
    return success();
  }
};

struct WmmaElementwisePattern
    : OpConversionPattern<gpu::SubgroupMmaElementwiseOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(gpu::SubgroupMmaElementwiseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    ValueRange args = adaptor.getArgs();
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return rewriter.notifyMatchFailure(op, "fragment shape");
    Value result;
    switch (op.getOpType()) {
    case gpu::MMAElementwiseOp::ADDF:
      result = arith::AddFOp::create(rewriter, loc, args[0], args[1]);
      break;
    case gpu::MMAElementwiseOp::MULF:
      result = arith::MulFOp::create(rewriter, loc, args[0], args[1]);
      break;
    case gpu::MMAElementwiseOp::SUBF:
      result = arith::SubFOp::create(rewriter, loc, args[0], args[1]);
      break;
    case gpu::MMAElementwiseOp::DIVF:
      result = arith::DivFOp::create(rewriter, loc, args[0], args[1]);
      break;
    case gpu::MMAElementwiseOp::MAXF:
      result = arith::MaximumFOp::create(rewriter, loc, args[0], args[1]);
      break;
    case gpu::MMAElementwiseOp::MINF:
      result = arith::MinimumFOp::create(rewriter, loc, args[0], args[1]);
      break;
    case gpu::MMAElementwiseOp::NEGATEF:
      result = arith::NegFOp::create(rewriter, loc, args[0]);
      break;
    case gpu::MMAElementwiseOp::ADDI:
      result = arith::AddIOp::create(rewriter, loc, args[0], args[1]);
      break;
    case gpu::MMAElementwiseOp::MULI:
      result = arith::MulIOp::create(rewriter, loc, args[0], args[1]);
      break;
    case gpu::MMAElementwiseOp::SUBI:
      result = arith::SubIOp::create(rewriter, loc, args[0], args[1]);
      break;
    case gpu::MMAElementwiseOp::EXTF:
      result = arith::ExtFOp::create(rewriter, loc, resultType, args[0]);
      break;
    default:
      return rewriter.notifyMatchFailure(op, "elementwise kind");
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Hopper: mbarriers, TMA loads, warpgroup MMA (handles cross loops as i64)
//===----------------------------------------------------------------------===//

namespace {
/// The i64 operand of a runtime call for an optional i1 predicate.
Value getPredicate(OpBuilder &b, Location loc, Value predicate) {
  if (!predicate)
    return constI32(b, loc, 1);
  return arith::ExtUIOp::create(b, loc, b.getI32Type(), predicate);
}

struct MBarrierCreatePattern : EmulationPattern<nvgpu::MBarrierCreateOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::MBarrierCreateOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    int64_t count = op.getBarriers().getType().getNumBarriers();
    rewriter.replaceOp(
        op, emulation.runtime->call(rewriter, loc, "gpucg_emu_mbarrier_group",
                                    {constI64(rewriter, loc, count),
                                     emulation.runtime->site(rewriter, op)}));
    return success();
  }
};

struct MBarrierInitPattern : EmulationPattern<nvgpu::MBarrierInitOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::MBarrierInitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emulation.runtime->call(
        rewriter, loc, "gpucg_emu_mbarrier_init",
        {adaptor.getBarriers(), toI64(rewriter, loc, adaptor.getMbarId()),
         toI64(rewriter, loc, adaptor.getCount()),
         getPredicate(rewriter, loc, adaptor.getPredicate()),
         emulation.runtime->site(rewriter, op)});
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierArrivePattern : EmulationPattern<nvgpu::MBarrierArriveOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::MBarrierArriveOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    rewriter.replaceOp(
        op,
        emulation.runtime->call(
            rewriter, loc, "gpucg_emu_mbarrier_arrive",
            {adaptor.getBarriers(), toI64(rewriter, loc, adaptor.getMbarId()),
             constI64(rewriter, loc, 0), constI32(rewriter, loc, 1),
             emulation.runtime->site(rewriter, op)}));
    return success();
  }
};

struct MBarrierArriveExpectTxPattern
    : EmulationPattern<nvgpu::MBarrierArriveExpectTxOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::MBarrierArriveExpectTxOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    emulation.runtime->call(
        rewriter, loc, "gpucg_emu_mbarrier_arrive",
        {adaptor.getBarriers(), toI64(rewriter, loc, adaptor.getMbarId()),
         toI64(rewriter, loc, adaptor.getTxcount()),
         getPredicate(rewriter, loc, adaptor.getPredicate()),
         emulation.runtime->site(rewriter, op)});
    rewriter.eraseOp(op);
    return success();
  }
};

struct MBarrierTryWaitParityPattern
    : EmulationPattern<nvgpu::MBarrierTryWaitParityOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::MBarrierTryWaitParityOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The NVVM lowering retries try_wait until it succeeds: a blocking wait.
    Location loc = op.getLoc();
    emulation.runtime->call(
        rewriter, loc, "gpucg_emu_mbarrier_wait",
        {adaptor.getBarriers(), toI64(rewriter, loc, adaptor.getMbarId()),
         arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(),
                                adaptor.getPhaseParity()),
         emulation.runtime->site(rewriter, op)});
    rewriter.eraseOp(op);
    return success();
  }
};

struct TmaAsyncLoadPattern : EmulationPattern<nvgpu::TmaAsyncLoadOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::TmaAsyncLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto dstType = cast<MemRefType>(op.getDst().getType());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    SmallVector<Value> dstIndices(dstType.getRank(), zero);
    Value dst = getElementAddress(rewriter, loc, adaptor.getDst(), dstIndices,
                                  *getElementBytes(dstType.getElementType()));
    SmallVector<Value> operands = {adaptor.getTensorMapDescriptor(), dst};
    // nvgpu's coordinates run innermost first; the runtime's, like the
    // tensor map's dimensions, outermost first.
    ValueRange coordinates = adaptor.getCoordinates();
    for (int64_t d = 0; d < 5; ++d)
      operands.push_back(
          d < static_cast<int64_t>(coordinates.size())
              ? toI64(rewriter, loc, coordinates[coordinates.size() - 1 - d])
              : constI64(rewriter, loc, 0));
    operands.push_back(adaptor.getBarriers());
    operands.push_back(toI64(rewriter, loc, adaptor.getMbarId()));
    operands.push_back(getPredicate(rewriter, loc, adaptor.getPredicate()));
    // The i16 mask with the runtime's flag that it is one: a mask of 0 is
    // then an error rather than a load to the issuing block alone.
    Value mask = constI32(rewriter, loc, 0);
    if (Value multicast = adaptor.getMulticastMask())
      mask = arith::OrIOp::create(
          rewriter, loc,
          arith::ExtUIOp::create(rewriter, loc, rewriter.getI32Type(),
                                 multicast),
          constI32(rewriter, loc, gpucg::kEmulatorTmaMulticast));
    operands.push_back(mask);
    operands.push_back(emulation.runtime->site(rewriter, op));
    emulation.runtime->call(rewriter, loc, "gpucg_emu_tma_load", operands);
    rewriter.eraseOp(op);
    return success();
  }
};

struct WarpgroupDescriptorPattern
    : EmulationPattern<nvgpu::WarpgroupGenerateDescriptorOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::WarpgroupGenerateDescriptorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The tile's address; its shape and swizzle are static (see
    // EmulationContext::wgmmaSwizzles).
    Location loc = op.getLoc();
    auto type = cast<MemRefType>(op.getTensor().getType());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    SmallVector<Value> indices(type.getRank(), zero);
    rewriter.replaceOp(
        op, getElementAddress(rewriter, loc, adaptor.getTensor(), indices,
                              *getElementBytes(type.getElementType())));
    return success();
  }
};

struct WarpgroupInitAccumulatorPattern
    : EmulationPattern<nvgpu::WarpgroupMmaInitAccumulatorOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::WarpgroupMmaInitAccumulatorOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    // The thread's fragment lives in a scratch buffer; the accumulator
    // values are its address.
    Location loc = op.getLoc();
    VectorType fragmented = op.getMatrixC().getType().getFragmented();
    int64_t elements = fragmented.getNumElements() / kWarpgroupThreads;
    Value scratch =
        createScratch(rewriter, emulation.body,
                      VectorType::get({elements}, fragmented.getElementType()));
    Value address = getScratchAddress(rewriter, loc, scratch);
    emulation.runtime->call(rewriter, loc, "gpucg_emu_wgmma_init",
                            {address, constI64(rewriter, loc, elements),
                             emulation.runtime->site(rewriter, op)});
    rewriter.replaceOp(op, address);
    return success();
  }
};

struct WarpgroupMmaPattern : EmulationPattern<nvgpu::WarpgroupMmaOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::WarpgroupMmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MemRefType aTile = op.getDescriptorA().getType().getTensor();
    VectorType fragmented = op.getMatrixC().getType().getFragmented();
    EmulatorType abType = *getWgmmaOperandType(aTile.getElementType());
    auto layouts = emulation.wgmmaLayouts.lookup(op);
    SmallVector<Value> operands = {
        adaptor.getMatrixC(),
        adaptor.getDescriptorA(),
        adaptor.getDescriptorB(),
        constI32(rewriter, loc, fragmented.getDimSize(0)),
        constI32(rewriter, loc, fragmented.getDimSize(1)),
        constI32(rewriter, loc, aTile.getDimSize(1)),
        constI32(rewriter, loc, static_cast<int32_t>(abType)),
        constI32(rewriter, loc, layouts.first.swizzleBytes),
        constI32(rewriter, loc, layouts.second.swizzleBytes),
        constI32(rewriter, loc, op.getTransposeA().value_or(false)),
        constI32(rewriter, loc, op.getTransposeB().value_or(false)),
        constI64(rewriter, loc, layouts.first.leadingBytes),
        constI64(rewriter, loc, layouts.second.leadingBytes),
        constI32(rewriter, loc, op.getWaitGroup()),
        emulation.runtime->site(rewriter, op)};
    emulation.runtime->call(rewriter, loc, "gpucg_emu_wgmma", operands);
    // The group adds into the fragment in place.
    rewriter.replaceOp(op, adaptor.getMatrixC());
    return success();
  }
};

struct WarpgroupMmaStorePattern : EmulationPattern<nvgpu::WarpgroupMmaStoreOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::WarpgroupMmaStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    VectorType fragmented = op.getMatrixD().getType().getFragmented();
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value dst = getElementAddress(rewriter, loc, adaptor.getDstMemref(),
                                  {zero, zero}, 4);
    auto metadata = memref::ExtractStridedMetadataOp::create(
        rewriter, loc, adaptor.getDstMemref());
    emulation.runtime->call(rewriter, loc, "gpucg_emu_wgmma_store",
                            {adaptor.getMatrixD(),
                             constI32(rewriter, loc, fragmented.getDimSize(0)),
                             constI32(rewriter, loc, fragmented.getDimSize(1)),
                             dst,
                             toI64(rewriter, loc, metadata.getStrides()[0]),
                             toI64(rewriter, loc, metadata.getStrides()[1]),
                             emulation.runtime->site(rewriter, op)});
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// Clusters: remote mbarrier arrivals, cluster-scope waits
//===----------------------------------------------------------------------===//

/// What the errors about the ops on an mbarrier's address say the emulator
/// models.
static constexpr StringLiteral kRemoteArriveChain =
    "the emulator models an mbarrier's address in a remote arrival, "
    "nvgpu.mbarrier.get -> llvm.inttoptr (to !llvm.ptr<3>) -> nvvm.mapa (to "
    "!llvm.ptr<7>) -> nvvm.mbarrier.arrive {scope = #nvvm.mem_scope<cluster>} "
    "(one arrival: no count, not relaxed), and in a cluster-scope wait, "
    "nvgpu.mbarrier.get -> llvm.inttoptr (to !llvm.ptr<3>) -> "
    "nvvm.mbarrier.try_wait on an i32 phase parity {scope = "
    "#nvvm.mem_scope<cluster>} (no ticks, not relaxed)";

/// Whether `type` is NVVM's shared::cluster pointer (address space 7),
/// which only nvvm.mapa gives.
static bool isSharedClusterPointer(Type type) {
  auto pointer = dyn_cast<LLVM::LLVMPointerType>(type);
  return pointer &&
         pointer.getAddressSpace() ==
             static_cast<unsigned>(NVVM::NVVMMemorySpace::SharedCluster);
}

/// The nvgpu.mbarrier.get whose address `pointer` is (through
/// llvm.inttoptr), or null.
static nvgpu::MBarrierGetOp getMbarrierOfPointer(Value pointer) {
  auto toPointer = pointer.getDefiningOp<LLVM::IntToPtrOp>();
  return toPointer ? toPointer.getArg().getDefiningOp<nvgpu::MBarrierGetOp>()
                   : nvgpu::MBarrierGetOp();
}

/// The nvgpu.mbarrier.get whose address `mapa` maps, or null.
static nvgpu::MBarrierGetOp getMappedMbarrier(NVVM::MapaOp mapa) {
  return getMbarrierOfPointer(mapa.getA());
}

/// The ordering both chains' last op must have: at cluster scope (the other
/// workgroups of the cluster take part), not relaxed.
template <typename NVVMOp>
static LogicalResult
checkClusterOrdering(NVVMOp op,
                     function_ref<LogicalResult(const Twine &)> fail) {
  if (op.getScope() != NVVM::MemScopeKind::CLUSTER)
    return fail("has scope '" + NVVM::stringifyMemScopeKind(op.getScope()) +
                "'");
  if (op.getRelaxed())
    return fail("is relaxed");
  return success();
}

/// An nvvm.mbarrier.arrive on a shared::cluster pointer: the end of the
/// chain that becomes gpucg_emu_mbarrier_arrive_cluster.
static LogicalResult checkRemoteArrive(NVVM::MBarrierArriveOp arrive) {
  auto fail = [&](const Twine &what) {
    return arrive.emitOpError() << what << "; " << kRemoteArriveChain;
  };
  auto mapa = arrive.getAddr().getDefiningOp<NVVM::MapaOp>();
  if (!mapa || !getMappedMbarrier(mapa))
    return fail("arrives at a shared::cluster address that no nvvm.mapa of "
                "an nvgpu.mbarrier.get's address gives");
  if (arrive.getCount())
    return fail("arrives with a count");
  return checkClusterOrdering(arrive, fail);
}

/// An nvvm.mbarrier.try_wait: the end of the chain that becomes a blocking
/// gpucg_emu_mbarrier_wait (the kernel retries a try_wait that fails).
static LogicalResult checkClusterWait(NVVM::MBarrierTryWaitOp wait) {
  auto fail = [&](const Twine &what) {
    return wait.emitOpError() << what << "; " << kRemoteArriveChain;
  };
  if (!getMbarrierOfPointer(wait.getAddr()))
    return fail("waits at an address that no nvgpu.mbarrier.get gives "
                "(through llvm.inttoptr)");
  if (!wait.getStateOrPhase().getType().isInteger(32))
    return fail("waits on a state, not a phase parity");
  if (wait.getTicks())
    return fail("has a time limit");
  return checkClusterOrdering(wait, fail);
}

/// An nvvm.mapa: the middle of the chain, mapping an nvgpu.mbarrier.get's
/// address to a shared::cluster pointer that only remote arrivals use.
static LogicalResult checkMapa(NVVM::MapaOp mapa) {
  auto fail = [&](const Twine &what) {
    return mapa.emitOpError() << what << "; " << kRemoteArriveChain;
  };
  if (!getMappedMbarrier(mapa))
    return fail("maps an address that no nvgpu.mbarrier.get gives (through "
                "llvm.inttoptr)");
  if (!isSharedClusterPointer(mapa.getType()))
    return fail("maps to a generic address");
  for (Operation *user : mapa->getUsers())
    if (!isa<NVVM::MBarrierArriveOp>(user))
      return fail("gives an address that '" + user->getName().getStringRef() +
                  "' uses");
  return success();
}

/// An nvgpu.mbarrier.get: the head of the chain, whose address only
/// llvm.inttoptr into nvvm.mapa or nvvm.mbarrier.try_wait may use (the
/// emulator's mbarriers have no address to give).
static LogicalResult checkMbarrierGet(nvgpu::MBarrierGetOp get) {
  auto fail = [&](const Twine &what) {
    return get.emitOpError() << what << "; " << kRemoteArriveChain;
  };
  for (Operation *user : get->getUsers()) {
    auto toPointer = dyn_cast<LLVM::IntToPtrOp>(user);
    if (!toPointer)
      return fail("gives an address that '" + user->getName().getStringRef() +
                  "' uses");
    for (Operation *pointerUser : toPointer->getUsers())
      if (!isa<NVVM::MapaOp, NVVM::MBarrierTryWaitOp>(pointerUser))
        return fail("gives an address that '" +
                    pointerUser->getName().getStringRef() +
                    "' uses (through llvm.inttoptr)");
  }
  return success();
}

namespace {
/// nvgpu.mbarrier.get -> llvm.inttoptr -> nvvm.mapa -> nvvm.mbarrier.arrive
/// on the shared::cluster pointer, or -> nvvm.mbarrier.try_wait at cluster
/// scope (checkMbarrierGet, checkMapa, checkRemoteArrive and
/// checkClusterWait matched the chains): each arrival becomes one on the
/// barrier of the same group and index in the block of that rank, each
/// wait a blocking wait on the barrier (its result true: the emulator has
/// no memory scopes to acquire at), and the address chain goes. Matched at
/// its head, whose group handle the conversion gives, and which no op may
/// keep using.
struct MbarrierAddressPattern : EmulationPattern<nvgpu::MBarrierGetOp> {
  using EmulationPattern::EmulationPattern;
  LogicalResult
  matchAndRewrite(nvgpu::MBarrierGetOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    SetVector<Operation *> toPointers, mapas, arrives, waits;
    for (Operation *toPointer : op->getUsers()) {
      toPointers.insert(toPointer);
      for (Operation *user : toPointer->getUsers()) {
        if (isa<NVVM::MBarrierTryWaitOp>(user)) {
          waits.insert(user);
          continue;
        }
        mapas.insert(user);
        arrives.insert(user->user_begin(), user->user_end());
      }
    }
    for (Operation *wait : waits) {
      Location loc = wait->getLoc();
      rewriter.setInsertionPoint(wait);
      emulation.runtime->call(
          rewriter, loc, "gpucg_emu_mbarrier_wait",
          {adaptor.getBarriers(), toI64(rewriter, loc, adaptor.getMbarId()),
           rewriter.getRemappedValue(
               cast<NVVM::MBarrierTryWaitOp>(wait).getStateOrPhase()),
           emulation.runtime->site(rewriter, wait)});
      rewriter.replaceOp(wait, arith::ConstantIntOp::create(rewriter, loc,
                                                            /*value=*/1,
                                                            /*width=*/1));
    }
    for (Operation *arrive : arrives) {
      Location loc = arrive->getLoc();
      auto mapa = cast<NVVM::MapaOp>(
          cast<NVVM::MBarrierArriveOp>(arrive).getAddr().getDefiningOp());
      rewriter.setInsertionPoint(arrive);
      emulation.runtime->call(
          rewriter, loc, "gpucg_emu_mbarrier_arrive_cluster",
          {adaptor.getBarriers(), toI64(rewriter, loc, adaptor.getMbarId()),
           rewriter.getRemappedValue(mapa.getB()),
           emulation.runtime->site(rewriter, arrive)});
    }
    for (const SetVector<Operation *> &ops : {arrives, mapas, toPointers})
      for (Operation *chained : ops)
        rewriter.eraseOp(chained);
    rewriter.eraseOp(op);
    return success();
  }
};
} // namespace

/// Checks the Hopper ops' limits before they are converted: what the
/// runtime models, with errors that name the op.
static LogicalResult checkHopperOp(Operation *op) {
  // An nvgpu op on the Hopper handles that no pattern below rewrites would
  // be left between converted values: report it now.
  auto isHopperHandle = [](Type type) {
    return isa<nvgpu::MBarrierGroupType, nvgpu::MBarrierTokenType,
               nvgpu::TensorMapDescriptorType,
               nvgpu::WarpgroupMatrixDescriptorType,
               nvgpu::WarpgroupAccumulatorType>(type);
  };
  if (isa<nvgpu::NVGPUDialect>(op->getDialect()) &&
      llvm::any_of(
          llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()),
          isHopperHandle) &&
      !isa<nvgpu::MBarrierCreateOp, nvgpu::MBarrierInitOp,
           nvgpu::MBarrierArriveOp, nvgpu::MBarrierArriveExpectTxOp,
           nvgpu::MBarrierTryWaitParityOp, nvgpu::MBarrierGetOp,
           nvgpu::TmaAsyncLoadOp, nvgpu::WarpgroupGenerateDescriptorOp,
           nvgpu::WarpgroupMmaInitAccumulatorOp, nvgpu::WarpgroupMmaOp,
           nvgpu::WarpgroupMmaStoreOp>(op))
    return op->emitOpError()
           << "is not modelled by the CPU emulator (gpucg-test-emulate-gpu)";
  // A remote arrival's chain; a local nvvm.mbarrier.arrive is reported
  // with the other NVVM ops the emulator does not model.
  if (auto get = dyn_cast<nvgpu::MBarrierGetOp>(op))
    return checkMbarrierGet(get);
  if (auto mapa = dyn_cast<NVVM::MapaOp>(op))
    return checkMapa(mapa);
  if (auto arrive = dyn_cast<NVVM::MBarrierArriveOp>(op))
    if (isSharedClusterPointer(arrive.getAddr().getType()))
      return checkRemoteArrive(arrive);
  if (auto wait = dyn_cast<NVVM::MBarrierTryWaitOp>(op))
    return checkClusterWait(wait);
  // The runtime's tensor maps are made on the host, where
  // rewriteHostTensorMaps replaced nvgpu.tma.create.descriptor (whose
  // memref has whole-byte elements).
  Value map;
  if (auto load = dyn_cast<nvgpu::TmaAsyncLoadOp>(op))
    map = load.getTensorMapDescriptor();
  if (auto generate = dyn_cast<nvgpu::WarpgroupGenerateDescriptorOp>(op))
    map = generate.getTensorMap();
  if (map && !isHostTensorMap(map))
    return op->emitOpError()
           << "takes a tensor map that no nvgpu.tma.create.descriptor of the "
              "host made; the emulator makes its own there";
  if (auto mma = dyn_cast<nvgpu::WarpgroupMmaOp>(op)) {
    Type element = mma.getDescriptorA().getType().getTensor().getElementType();
    Type bElement = mma.getDescriptorB().getType().getTensor().getElementType();
    Type accumulator =
        mma.getMatrixC().getType().getFragmented().getElementType();
    // (The runtime takes one operand type, A's.)
    if (failed(getWgmmaOperandType(element)) || bElement != element)
      return op->emitOpError()
             << "multiplies " << element << " by " << bElement
             << "; the emulator models wgmma of two f16, two bf16, two tf32, "
                "two f8E4M3FN or two f8E5M2 operands";
    if (!accumulator.isF32())
      return op->emitOpError() << "accumulates in " << accumulator
                               << "; the emulator models f32 accumulators";
    for (Value descriptor : {mma.getDescriptorA(), mma.getDescriptorB()})
      if (!descriptor.getDefiningOp<nvgpu::WarpgroupGenerateDescriptorOp>())
        return op->emitOpError()
               << "takes a descriptor that no "
                  "nvgpu.warpgroup.generate.descriptor in the same region "
                  "makes; the emulator reads the tile's swizzle from it";
  }
  if (auto store = dyn_cast<nvgpu::WarpgroupMmaStoreOp>(op)) {
    MemRefType dst = store.getDstMemref().getType();
    if (!dst.getElementType().isF32() || dst.getRank() != 2)
      return op->emitOpError() << "stores to " << dst
                               << "; the emulator stores f32 accumulators "
                                  "to 2-D f32 memrefs";
  }
  return success();
}

/// Checks what the type conversion below cannot take, with errors that name
/// the op and the limit (a failed conversion would only say "failed to
/// legalize").
static LogicalResult checkTypedOps(func::FuncOp body) {
  WalkResult result = body.walk([&](Operation *op) -> WalkResult {
    for (Type type :
         llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
      auto fragment = dyn_cast<gpu::MMAMatrixType>(type);
      if (fragment && !isEmulatableFragment(fragment)) {
        op->emitOpError() << "uses fragment " << fragment
                          << ", whose elements do not split evenly over the "
                          << kEmulatedWarpSize << " lanes of a warp";
        return WalkResult::interrupt();
      }
    }
    if (failed(checkHopperOp(op)))
      return WalkResult::interrupt();
    if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
      Type element = copy.getDst().getType().getElementType();
      if (failed(getElementBytes(element))) {
        op->emitOpError() << "copies elements of type " << element
                          << "; the emulator copies whole bytes";
        return WalkResult::interrupt();
      }
    }
    if (auto compute = dyn_cast<gpu::SubgroupMmaComputeOp>(op)) {
      Type a =
          cast<gpu::MMAMatrixType>(compute.getOpA().getType()).getElementType();
      Type c =
          cast<gpu::MMAMatrixType>(compute.getOpC().getType()).getElementType();
      if (failed(getMmaOperandType(a, /*tf32=*/true)) ||
          failed(getMmaOperandType(c, /*tf32=*/false))) {
        op->emitOpError() << "multiplies " << a << " into " << c
                          << "; the emulator has no such WMMA";
        return WalkResult::interrupt();
      }
    }
    if (auto elementwise = dyn_cast<gpu::SubgroupMmaElementwiseOp>(op)) {
      switch (elementwise.getOpType()) {
      case gpu::MMAElementwiseOp::ADDF:
      case gpu::MMAElementwiseOp::MULF:
      case gpu::MMAElementwiseOp::SUBF:
      case gpu::MMAElementwiseOp::DIVF:
      case gpu::MMAElementwiseOp::MAXF:
      case gpu::MMAElementwiseOp::MINF:
      case gpu::MMAElementwiseOp::NEGATEF:
      case gpu::MMAElementwiseOp::ADDI:
      case gpu::MMAElementwiseOp::MULI:
      case gpu::MMAElementwiseOp::SUBI:
      case gpu::MMAElementwiseOp::EXTF:
        break;
      default:
        op->emitOpError() << "applies '"
                          << gpu::stringifyMMAElementwiseOp(
                                 elementwise.getOpType())
                          << "', which the emulator does not model";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

static LogicalResult convertTypedOps(func::FuncOp body,
                                     EmulatorRuntime &runtime) {
  if (failed(checkTypedOps(body)))
    return failure();
  MLIRContext *ctx = body.getContext();
  // Sites are module symbols: create them before the conversion starts.
  body.walk([&](Operation *op) {
    if (isa<gpu::SubgroupMmaComputeOp, nvgpu::DeviceAsyncCopyOp,
            nvgpu::MBarrierCreateOp, nvgpu::MBarrierInitOp,
            nvgpu::MBarrierArriveOp, nvgpu::MBarrierArriveExpectTxOp,
            nvgpu::MBarrierTryWaitParityOp, nvgpu::TmaAsyncLoadOp,
            nvgpu::WarpgroupMmaInitAccumulatorOp, nvgpu::WarpgroupMmaOp,
            nvgpu::WarpgroupMmaStoreOp>(op))
      runtime.createSite(op);
    // Remote arrivals and cluster-scope waits (MbarrierAddressPattern); the
    // others are refused.
    if (auto arrive = dyn_cast<NVVM::MBarrierArriveOp>(op);
        arrive && isSharedClusterPointer(arrive.getAddr().getType()))
      runtime.createSite(op);
    if (isa<NVVM::MBarrierTryWaitOp>(op))
      runtime.createSite(op);
  });

  TypeConverter converter;
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([ctx](nvgpu::DeviceAsyncTokenType) -> Type {
    return IntegerType::get(ctx, 32);
  });
  converter.addConversion([](gpu::MMAMatrixType type) -> std::optional<Type> {
    if (!isEmulatableFragment(type))
      return std::nullopt;
    return getLaneFragmentType(type);
  });
  // Hopper handles: the runtime's mbarrier groups and tensor maps, a tile's
  // or an accumulator fragment's address, an arrival's phase.
  converter.addConversion([ctx](Type type) -> std::optional<Type> {
    if (isa<nvgpu::MBarrierGroupType, nvgpu::MBarrierTokenType,
            nvgpu::TensorMapDescriptorType,
            nvgpu::WarpgroupMatrixDescriptorType,
            nvgpu::WarpgroupAccumulatorType>(type))
      return IntegerType::get(ctx, 64);
    return std::nullopt;
  });

  ConversionTarget target(*ctx);
  target.addIllegalOp<
      nvgpu::DeviceAsyncCopyOp, nvgpu::DeviceAsyncCreateGroupOp,
      nvgpu::DeviceAsyncWaitOp, gpu::SubgroupMmaLoadMatrixOp,
      gpu::SubgroupMmaStoreMatrixOp, gpu::SubgroupMmaConstantMatrixOp,
      gpu::SubgroupMmaComputeOp, gpu::SubgroupMmaElementwiseOp,
      nvgpu::MBarrierCreateOp, nvgpu::MBarrierInitOp, nvgpu::MBarrierArriveOp,
      nvgpu::MBarrierArriveExpectTxOp, nvgpu::MBarrierTryWaitParityOp,
      nvgpu::TmaAsyncLoadOp, nvgpu::WarpgroupGenerateDescriptorOp,
      nvgpu::WarpgroupMmaInitAccumulatorOp, nvgpu::WarpgroupMmaOp,
      nvgpu::WarpgroupMmaStoreOp, nvgpu::MBarrierGetOp>();
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  target.addDynamicallyLegalOp<arith::SelectOp>([](arith::SelectOp op) {
    return !isa<gpu::MMAMatrixType>(op.getType());
  });

  EmulationContext emulation;
  emulation.body = body;
  emulation.runtime = &runtime;
  // checkTypedOps made sure each descriptor comes from a
  // nvgpu.warpgroup.generate.descriptor.
  body.walk([&](nvgpu::WarpgroupMmaOp mma) {
    auto layoutOf = [](Value descriptor) {
      auto generate =
          descriptor.getDefiningOp<nvgpu::WarpgroupGenerateDescriptorOp>();
      nvgpu::TensorMapDescriptorType map = generate.getTensorMap().getType();
      WgmmaTileLayout layout;
      layout.swizzleBytes = getSwizzleBytes(map.getSwizzle());
      layout.leadingBytes = map.getTensor().getDimSize(0) * layout.swizzleBytes;
      return layout;
    };
    emulation.wgmmaLayouts[mma] = {layoutOf(mma.getDescriptorA()),
                                   layoutOf(mma.getDescriptorB())};
  });
  RewritePatternSet patterns(ctx);
  patterns
      .add<AsyncCopyPattern, AsyncCreateGroupPattern, AsyncWaitPattern,
           WmmaLoadPattern, WmmaStorePattern, WmmaComputePattern,
           MBarrierCreatePattern, MBarrierInitPattern, MBarrierArrivePattern,
           MBarrierArriveExpectTxPattern, MBarrierTryWaitParityPattern,
           TmaAsyncLoadPattern, WarpgroupDescriptorPattern,
           WarpgroupInitAccumulatorPattern, WarpgroupMmaPattern,
           WarpgroupMmaStorePattern, MbarrierAddressPattern>(converter, ctx,
                                                             emulation);
  patterns.add<WmmaConstantPattern, WmmaElementwisePattern, WmmaSelectPattern>(
      converter, ctx);
  scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                       target);
  if (failed(applyPartialConversion(body, target, std::move(patterns))))
    return failure();
  // The tensor maps' casts from the host's handles, now unused.
  body.walk([](UnrealizedConversionCastOp cast) {
    if (cast->use_empty())
      cast->erase();
  });
  return success();
}

//===----------------------------------------------------------------------===//
// Race detection: every access to workgroup memory
//===----------------------------------------------------------------------===//

/// Reports the bytes `op` reads or writes in workgroup memory to the
/// runtime (gpucg_emu_access), or, with `globalFunction`, those it accesses
/// in global memory to that function (gpucg_emu_global_store or
/// gpucg_emu_global_load): `rows` contiguous runs of `rowElements` elements
/// each, starting at `memref[indices]` with the rows along dimension
/// `rank - 2`.
static void reportAccess(OpBuilder &b, EmulatorRuntime &runtime, Operation *op,
                         Value memref, ValueRange indices,
                         ArrayRef<int64_t> leadingShape, int64_t rowElements,
                         bool isWrite, StringRef globalFunction = {}) {
  Location loc = op->getLoc();
  auto type = cast<MemRefType>(memref.getType());
  int64_t elementBytes = *getElementBytes(type.getElementType());
  Value site = runtime.site(b, op);
  Value bytes = constI64(b, loc, rowElements * elementBytes);
  Value write = constI32(b, loc, isWrite);
  int64_t numRows = 1;
  for (int64_t size : leadingShape)
    numRows *= size;
  for (int64_t row = 0; row < numRows; ++row) {
    // The leading vector dimensions map to the memref's dimensions just
    // before the innermost one.
    SmallVector<Value> rowIndices(indices.begin(), indices.end());
    int64_t rest = row;
    for (int64_t dim = static_cast<int64_t>(leadingShape.size()) - 1; dim >= 0;
         --dim) {
      int64_t position = rest % leadingShape[dim];
      rest /= leadingShape[dim];
      size_t memrefDim = rowIndices.size() - leadingShape.size() - 1 + dim;
      if (position != 0)
        rowIndices[memrefDim] = arith::AddIOp::create(
            b, loc, rowIndices[memrefDim],
            arith::ConstantIndexOp::create(b, loc, position));
    }
    Value address = getElementAddress(b, loc, memref, rowIndices, elementBytes);
    if (!globalFunction.empty())
      runtime.call(b, loc, globalFunction, {address, bytes, site});
    else
      runtime.call(b, loc, "gpucg_emu_access", {address, bytes, write, site});
  }
}

/// Whether `memref` views memory the body's caller gave it (an argument of
/// `body`: a kernel argument) or a module-level global: global memory that
/// outlives a workgroup, unlike an alloca on a thread's stack, which the
/// emulator's fibers reuse across workgroups.
static bool isGlobalMemoryOf(Value memref, func::FuncOp body) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  if (auto argument = dyn_cast<BlockArgument>(memref))
    return argument.getOwner() == &body.getBody().front();
  return memref.getDefiningOp<memref::GetGlobalOp>() != nullptr;
}

namespace {
/// An access to memory that instrumentGlobalAccesses reports: the memref,
/// the first element's indices, the vector's shape (none for a scalar) and
/// the runtime function that records it.
struct MemoryAccess {
  Value base;
  ValueRange indices;
  ArrayRef<int64_t> vectorShape;
  StringRef function;
};
} // namespace

/// The access `op` makes if it is a load, a store or an atomic that
/// touches whole elements or vectors: memref.load/store, vector.load/store,
/// vector.transfer_read/write without a mask, minor-identity and in bounds,
/// memref.atomic_rmw and memref.generic_atomic_rmw. Masked and
/// out-of-bounds transfers (a partial tile's edge) are not: their lanes
/// past the matrix would alias the next row's, which another workgroup
/// stores.
static std::optional<MemoryAccess> getWholeAccess(Operation *op) {
  constexpr StringLiteral load = "gpucg_emu_global_load",
                          store = "gpucg_emu_global_store",
                          atomic = "gpucg_emu_global_atomic";
  auto transfer = [&](VectorTransferOpInterface transfer,
                      StringRef function) -> std::optional<MemoryAccess> {
    if (transfer.getMask() || !transfer.getPermutationMap().isMinorIdentity() ||
        !llvm::all_of(transfer.getInBoundsValues(), [](bool b) { return b; }))
      return std::nullopt;
    return MemoryAccess{transfer.getBase(), transfer.getIndices(),
                        transfer.getVectorType().getShape(), function};
  };
  return TypeSwitch<Operation *, std::optional<MemoryAccess>>(op)
      .Case([&](memref::LoadOp op) {
        return MemoryAccess{op.getMemRef(), op.getIndices(), {}, load};
      })
      .Case([&](memref::StoreOp op) {
        return MemoryAccess{op.getMemRef(), op.getIndices(), {}, store};
      })
      .Case([&](vector::LoadOp op) {
        return MemoryAccess{op.getBase(), op.getIndices(),
                            op.getVectorType().getShape(), load};
      })
      .Case([&](vector::StoreOp op) {
        return MemoryAccess{op.getBase(), op.getIndices(),
                            op.getVectorType().getShape(), store};
      })
      .Case([&](vector::TransferReadOp op) { return transfer(op, load); })
      .Case([&](vector::TransferWriteOp op) { return transfer(op, store); })
      .Case([&](memref::AtomicRMWOp op) {
        return MemoryAccess{op.getMemref(), op.getIndices(), {}, atomic};
      })
      .Case([&](memref::GenericAtomicRMWOp op) {
        return MemoryAccess{op.getMemref(), op.getIndices(), {}, atomic};
      })
      .Default([](Operation *) { return std::nullopt; });
}

/// Reports each access to global memory (a kernel argument or a module
/// global) in `body` that getWholeAccess describes to the runtime, which
/// checks the order of different workgroups' accesses to a byte
/// (docs/Emulator-runtime.md, "Global memory"): stores to
/// gpucg_emu_global_store, loads to gpucg_emu_global_load, atomics (the
/// element's address) to gpucg_emu_global_atomic.
static void instrumentGlobalAccesses(func::FuncOp body,
                                     EmulatorRuntime &runtime) {
  SmallVector<std::pair<Operation *, MemoryAccess>> accesses;
  body.walk([&](Operation *op) {
    std::optional<MemoryAccess> access = getWholeAccess(op);
    if (access && isa<MemRefType>(access->base.getType()) &&
        !isWorkgroupMemory(access->base.getType()) &&
        isGlobalMemoryOf(access->base, body))
      accesses.emplace_back(op, *access);
  });
  OpBuilder b(body.getContext());
  for (auto &[op, access] : accesses) {
    b.setInsertionPoint(op);
    ArrayRef<int64_t> shape = access.vectorShape;
    reportAccess(b, runtime, op, access.base, access.indices,
                 shape.empty() ? ArrayRef<int64_t>() : shape.drop_back(),
                 shape.empty() ? 1 : shape.back(),
                 access.function == "gpucg_emu_global_store", access.function);
  }
}

/// Checks each vector access in `body` that claims an alignment (a
/// vector.load or vector.store with `alignment`) at run time
/// (gpucg_emu_check_alignment): the CPU takes any address, a GPU's wide
/// access faults on a misaligned one.
static void checkClaimedAlignments(func::FuncOp body,
                                   EmulatorRuntime &runtime) {
  SmallVector<std::tuple<Operation *, Value, ValueRange, uint64_t>> accesses;
  body.walk([&](Operation *op) {
    TypeSwitch<Operation *>(op).Case<vector::LoadOp, vector::StoreOp>(
        [&](auto access) {
          if (std::optional<uint64_t> alignment = access.getAlignment())
            accesses.emplace_back(op, access.getBase(), access.getIndices(),
                                  *alignment);
        });
  });
  OpBuilder b(body.getContext());
  for (auto &[op, memref, indices, alignment] : accesses) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    auto type = cast<MemRefType>(memref.getType());
    Value address = getElementAddress(b, loc, memref, indices,
                                      *getElementBytes(type.getElementType()));
    runtime.call(b, loc, "gpucg_emu_check_alignment",
                 {address, constI64(b, loc, static_cast<int64_t>(alignment)),
                  runtime.site(b, op)});
  }
}

/// Checks each vector.load, vector.store and unmasked vector.transfer_read
/// and transfer_write of the kernel's global memory in `body` at run time
/// (gpucg_emu_check_vector_bounds): every element it touches must be one of
/// its memref's. A vector.load's or store's dimensions lie along the
/// memref's innermost ones; a transfer's along those its permutation map
/// names, each checked where the transfer claims it in bounds (a dimension
/// not claimed skips the elements past the memref), and its other
/// dimensions' indices are single elements. MLIR leaves an access past the
/// memref undefined; on a GPU it reads or writes the next row, or faults,
/// and the kernel's numbers may not show it (an unmasked read of a partial
/// vector at the K edge whose excess the other operand's zero padding
/// cancels, a store of rows past M into whatever lies after C). (A masked
/// transfer may name indices past the memref for lanes its mask turns off.)
static void checkVectorBounds(func::FuncOp body, EmulatorRuntime &runtime) {
  // Each access: its op, memref and indices, and per memref dimension the
  // elements it touches from its index (0: not checked).
  SmallVector<std::tuple<Operation *, Value, ValueRange, SmallVector<int64_t>>>
      accesses;
  auto isKernelGlobal = [&](Value memref) {
    return !isWorkgroupMemory(memref.getType()) &&
           isGlobalMemoryOf(memref, body);
  };
  body.walk([&](Operation *op) {
    TypeSwitch<Operation *>(op)
        .Case<vector::LoadOp, vector::StoreOp>([&](auto access) {
          if (!isKernelGlobal(access.getBase()))
            return;
          // The vector's dimensions are the memref's innermost ones.
          int64_t rank = access.getIndices().size();
          ArrayRef<int64_t> shape = access.getVectorType().getShape();
          SmallVector<int64_t> counts(rank, 1);
          for (auto [i, size] : llvm::enumerate(llvm::reverse(shape)))
            if (static_cast<int64_t>(i) < rank)
              counts[rank - 1 - i] = size;
          accesses.emplace_back(op, access.getBase(), access.getIndices(),
                                counts);
        })
        .Case<vector::TransferReadOp, vector::TransferWriteOp>(
            [&](auto transfer) {
              if (transfer.getMask() || !isKernelGlobal(transfer.getBase()))
                return;
              SmallVector<int64_t> counts(transfer.getIndices().size(), 1);
              ArrayRef<int64_t> shape = transfer.getVectorType().getShape();
              for (auto [vectorDim, result] :
                   llvm::enumerate(transfer.getPermutationMap().getResults())) {
                auto dim = dyn_cast<AffineDimExpr>(result);
                if (!dim)
                  continue;
                counts[dim.getPosition()] =
                    transfer.isDimInBounds(vectorDim) ? shape[vectorDim] : 0;
              }
              accesses.emplace_back(op, transfer.getBase(),
                                    transfer.getIndices(), counts);
            });
  });
  OpBuilder b(body.getContext());
  for (auto &[op, memref, indices, counts] : accesses) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    int64_t rank = indices.size();
    Value site = runtime.site(b, op);
    for (auto [dim, index] : llvm::enumerate(indices)) {
      if (counts[dim] == 0)
        continue;
      Value extent = memref::DimOp::create(b, loc, memref, dim);
      runtime.call(b, loc, "gpucg_emu_check_vector_bounds",
                   {constI32(b, loc, dim), constI32(b, loc, rank),
                    toI64(b, loc, index), constI64(b, loc, counts[dim]),
                    toI64(b, loc, extent), site});
    }
  }
}

static LogicalResult instrumentWorkgroupAccesses(func::FuncOp body,
                                                 EmulatorRuntime &runtime) {
  SmallVector<Operation *> accesses;
  body.walk([&](Operation *op) {
    if (llvm::any_of(op->getOperandTypes(), isWorkgroupMemory) &&
        isa<memref::LoadOp, memref::StoreOp, vector::LoadOp, vector::StoreOp,
            vector::TransferReadOp, vector::TransferWriteOp,
            vector::MaskedLoadOp, vector::MaskedStoreOp, memref::CopyOp>(op))
      accesses.push_back(op);
  });
  OpBuilder b(body.getContext());
  for (Operation *op : accesses) {
    b.setInsertionPoint(op);
    auto vectorShape = [](Type type) {
      auto vector = cast<VectorType>(type);
      return std::make_pair(vector.getShape().drop_back(),
                            vector.getShape().back());
    };
    LogicalResult result =
        TypeSwitch<Operation *, LogicalResult>(op)
            .Case([&](memref::LoadOp load) {
              reportAccess(b, runtime, op, load.getMemRef(), load.getIndices(),
                           {}, 1, false);
              return success();
            })
            .Case([&](memref::StoreOp store) {
              reportAccess(b, runtime, op, store.getMemRef(),
                           store.getIndices(), {}, 1, true);
              return success();
            })
            .Case<vector::LoadOp, vector::MaskedLoadOp>([&](auto load) {
              auto [leading, row] = vectorShape(load.getVectorType());
              reportAccess(b, runtime, op, load.getBase(), load.getIndices(),
                           leading, row, false);
              return success();
            })
            .Case<vector::StoreOp, vector::MaskedStoreOp>([&](auto store) {
              auto [leading, row] = vectorShape(store.getVectorType());
              reportAccess(b, runtime, op, store.getBase(), store.getIndices(),
                           leading, row, true);
              return success();
            })
            .Case<vector::TransferReadOp, vector::TransferWriteOp>(
                [&](auto transfer) -> LogicalResult {
                  AffineMap map = transfer.getPermutationMap();
                  if (!map.isMinorIdentity())
                    return op->emitOpError()
                           << "accesses workgroup memory through permutation "
                              "map "
                           << AffineMapAttr::get(map)
                           << "; the race detector takes minor-identity "
                              "transfers only (run with check-races=false)";
                  auto [leading, row] = vectorShape(transfer.getVectorType());
                  reportAccess(b, runtime, op, transfer.getBase(),
                               transfer.getIndices(), leading, row,
                               isa<vector::TransferWriteOp>(op));
                  return success();
                })
            .Default([&](Operation *) -> LogicalResult {
              return op->emitOpError()
                     << "copies workgroup memory as a whole; the race "
                        "detector does not follow it (run with "
                        "check-races=false)";
            });
    if (failed(result))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// The passes
//===----------------------------------------------------------------------===//

/// Replaces the workgroup address space by the default one everywhere in
/// `module`: on the CPU all memory is one.
static void dropWorkgroupAddressSpace(ModuleOp module) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
    if (!isa_and_nonnull<gpu::AddressSpaceAttr>(type.getMemorySpace()))
      return std::nullopt;
    return MemRefType::get(type.getShape(), type.getElementType(),
                           type.getLayout(), Attribute());
  });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

namespace {
struct TestEmulateGpuPass
    : public gpucg::impl::TestEmulateGpuBase<TestEmulateGpuPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    SmallVector<gpu::LaunchOp> launches;
    module.walk([&](gpu::LaunchOp launch) { launches.push_back(launch); });
    if (launches.empty())
      return;

    // Warp reductions as butterfly shuffles, exactly as gpucg-convert-to-nvvm
    // lowers them, so that the emulated shuffles are the ones that run.
    {
      RewritePatternSet patterns(ctx);
      populateGpuLowerSubgroupReduceToShufflePatterns(
          patterns, /*subgroupSize=*/kEmulatedWarpSize, /*shuffleBitwidth=*/32);
      FrozenRewritePatternSet frozen(std::move(patterns));
      // A reduction these patterns leave (a clustered one, or one left by a
      // driver that did not converge) is reported below as not modelled.
      for (gpu::LaunchOp launch : launches)
        (void)applyPatternsGreedily(launch, frozen);
    }

    EmulatorRuntime runtime(module);
    runtime.declareAll();
    if (failed(rewriteHostTensorMaps(module, runtime)))
      return signalPassFailure();
    for (auto [index, launch] : llvm::enumerate(launches)) {
      int64_t staticBytes = 0;
      FailureOr<func::FuncOp> body =
          outlineLaunch(launch, runtime, index, checkRaces, staticBytes);
      if (failed(body))
        return signalPassFailure();
      BodyRewriter rewriter(*body, runtime, staticBytes);
      if (failed(rewriter.rewriteSimpleOps()) ||
          failed(convertTypedOps(*body, runtime)))
        return signalPassFailure();
      // What the emulator does not model must not reach the CPU lowering,
      // which would drop or misread it.
      // (NVVM's 8-bit float conversions are gpucg-test-emulate-nvvm-
      // conversions', which runs next in gpucg-test-emulate-on-cpu.)
      WalkResult unmodelled = body->walk([&](Operation *op) {
        if (!isa<gpu::GPUDialect, nvgpu::NVGPUDialect, NVVM::NVVMDialect>(
                op->getDialect()) ||
            isa<NVVM::ConvertF32x2ToF8x2Op, NVVM::ConvertF8x2ToF16x2Op>(op))
          return WalkResult::advance();
        op->emitOpError()
            << "is not modelled by the CPU emulator (gpucg-test-emulate-gpu)";
        return WalkResult::interrupt();
      });
      if (unmodelled.wasInterrupted())
        return signalPassFailure();
      checkClaimedAlignments(*body, runtime);
      checkVectorBounds(*body, runtime);
      if (checkRaces && failed(instrumentWorkgroupAccesses(*body, runtime)))
        return signalPassFailure();
      if (checkRaces)
        instrumentGlobalAccesses(*body, runtime);
      body->walk([](Operation *op) { op->removeAttr(kSourceOpAttr); });
    }
    // The host's tensor-map casts, whose uses the bodies took over.
    module.walk([](UnrealizedConversionCastOp cast) {
      if (cast->use_empty() &&
          isa<nvgpu::TensorMapDescriptorType>(cast.getResult(0).getType()))
        cast->erase();
    });
    dropWorkgroupAddressSpace(module);
  }
};

struct TestEmulateLaunchesPass
    : public gpucg::impl::TestEmulateLaunchesBase<TestEmulateLaunchesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    auto pointerType = LLVM::LLVMPointerType::get(ctx);
    auto voidType = LLVM::LLVMVoidType::get(ctx);
    OpBuilder b(ctx);

    SmallVector<LLVM::LLVMFuncOp> bodies;
    module.walk([&](LLVM::LLVMFuncOp func) {
      if (func->hasAttr(kThreadBodyAttr))
        bodies.push_back(func);
    });
    if (bodies.empty())
      return;

    b.setInsertionPointToStart(module.getBody());
    auto launchType =
        LLVM::LLVMFunctionType::get(voidType, {pointerType, pointerType});
    auto launchFunc = module.lookupSymbol<LLVM::LLVMFuncOp>("gpucg_emu_launch");
    if (!launchFunc)
      launchFunc = LLVM::LLVMFuncOp::create(b, module.getLoc(),
                                            "gpucg_emu_launch", launchType);

    for (LLVM::LLVMFuncOp body : bodies) {
      LLVM::LLVMFunctionType bodyType = body.getFunctionType();
      if (!isa<LLVM::LLVMVoidType>(bodyType.getReturnType()) ||
          bodyType.isVarArg()) {
        body.emitOpError() << "is an emulated thread body of type " << bodyType
                           << "; it must return nothing";
        return signalPassFailure();
      }
      Location loc = body.getLoc();
      body->removeAttr(kThreadBodyAttr);
      // The calls to replace, before the trampoline adds its own.
      SmallVector<LLVM::CallOp> calls;
      module.walk([&](LLVM::CallOp call) {
        if (call.getCallee() == body.getSymName())
          calls.push_back(call);
      });
      auto closureType =
          LLVM::LLVMStructType::getLiteral(ctx, bodyType.getParams());

      // The trampoline: unpacks the closure and calls the body.
      b.setInsertionPointAfter(body);
      auto trampoline = LLVM::LLVMFuncOp::create(
          b, loc, (body.getSymName() + "_trampoline").str(),
          LLVM::LLVMFunctionType::get(voidType, {pointerType}));
      Block *entry = trampoline.addEntryBlock(b);
      b.setInsertionPointToStart(entry);
      SmallVector<Value> arguments;
      for (auto [index, type] : llvm::enumerate(bodyType.getParams())) {
        Value field = LLVM::GEPOp::create(
            b, loc, pointerType, closureType, entry->getArgument(0),
            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(index)});
        arguments.push_back(LLVM::LoadOp::create(b, loc, type, field));
      }
      LLVM::CallOp::create(b, loc, body, arguments);
      LLVM::ReturnOp::create(b, loc, ValueRange());

      // Each call: the closure on the caller's stack, then the launch.
      for (LLVM::CallOp call : calls) {
        b.setInsertionPoint(call);
        Location callLoc = call.getLoc();
        Value one = LLVM::ConstantOp::create(b, callLoc, b.getI64Type(),
                                             b.getI64IntegerAttr(1));
        Value closure =
            LLVM::AllocaOp::create(b, callLoc, pointerType, closureType, one);
        for (auto [index, operand] : llvm::enumerate(call.getArgOperands())) {
          Value field = LLVM::GEPOp::create(
              b, callLoc, pointerType, closureType, closure,
              ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(index)});
          LLVM::StoreOp::create(b, callLoc, operand, field);
        }
        Value function = LLVM::AddressOfOp::create(b, callLoc, trampoline);
        LLVM::CallOp::create(b, callLoc, launchFunc,
                             ValueRange{function, closure});
        call.erase();
      }
    }
  }
};
} // namespace

//===- ExportKernels.cpp - Binaries and launch facts for C callers -------===//
//
// Part of the gpucg project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// After gpu-module-to-binary, a kernel's launch facts live in its host
// function: the gpu.launch_func's grid, block, dynamic shared memory and
// operands. This pass writes them, with the binary, into files a C program
// reads without MLIR (docs/ABI.md describes the format).
//
//===----------------------------------------------------------------------===//

#include "gpucg/Conversion/ExportKernels.h"
#include "gpucg/Conversion/Passes.h"
#include "gpucg/Transforms/Transforms.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace gpucg {
#define GEN_PASS_DEF_EXPORTKERNELS
#include "gpucg/Conversion/Passes.h.inc"
} // namespace gpucg
} // namespace mlir

using namespace mlir;

/// The version written on the first line of every .abi file.
static constexpr int kAbiVersion = 1;

namespace {
/// A workgroup count of a launch as the ABI's grid formula reads it: a
/// product of a constant factor and up to kMaxGridSizeTerms size terms,
/// each `argN.dimD` or `ceildiv argN.dimD S` (a size of `host`'s argument
/// N), in the order the count multiplies them.
struct LaunchCountProduct {
  func::FuncOp host;
  int64_t factor = 1;
  SmallVector<std::string> terms;

  /// Multiplies in `value` (a constant, a size, `arith.muli` or an
  /// `affine.apply` of such); false where it is none of these.
  bool multiply(Value value) {
    if (std::optional<int64_t> constant = getConstantIntValue(value))
      return multiplyConstant(*constant);
    if (auto apply = value.getDefiningOp<affine::AffineApplyOp>())
      return apply.getAffineMap().getNumResults() == 1 &&
             multiply(apply.getAffineMap().getResult(0), apply);
    if (auto mul = value.getDefiningOp<arith::MulIOp>())
      return multiply(mul.getLhs()) && multiply(mul.getRhs());
    return takeTerm(describeSize(value), 1);
  }

private:
  bool multiplyConstant(int64_t constant) {
    if (constant < 1 || constant > INT32_MAX || factor > INT32_MAX / constant)
      return false;
    factor *= constant;
    return true;
  }

  /// `argN.dimD` for a `memref.dim` of the host's argument N.
  std::optional<std::string> describeSize(Value size) {
    auto dim = size.getDefiningOp<memref::DimOp>();
    if (!dim)
      return std::nullopt;
    auto arg = dyn_cast<BlockArgument>(dim.getSource());
    std::optional<int64_t> index = dim.getConstantIndex();
    if (!arg || arg.getOwner() != &host.getBody().front() || !index)
      return std::nullopt;
    return "arg" + std::to_string(arg.getArgNumber()) + ".dim" +
           std::to_string(*index);
  }

  bool takeTerm(std::optional<std::string> size, int64_t divisor) {
    if (!size || static_cast<int64_t>(terms.size()) == gpucg::kMaxGridSizeTerms)
      return false;
    terms.push_back(divisor == 1
                        ? *size
                        : "ceildiv " + *size + " " + std::to_string(divisor));
    return true;
  }

  /// `expr`, an expression of `apply`'s operands.
  bool multiply(AffineExpr expr, affine::AffineApplyOp apply) {
    auto operandOf = [&](AffineExpr e) -> Value {
      if (auto d = dyn_cast<AffineDimExpr>(e))
        return apply.getMapOperands()[d.getPosition()];
      if (auto sym = dyn_cast<AffineSymbolExpr>(e))
        return apply.getMapOperands()[apply.getAffineMap().getNumDims() +
                                      sym.getPosition()];
      return Value();
    };
    if (auto constant = dyn_cast<AffineConstantExpr>(expr))
      return multiplyConstant(constant.getValue());
    if (Value operand = operandOf(expr))
      return multiply(operand);
    auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
    if (!binary)
      return false;
    if (binary.getKind() == AffineExprKind::Mul)
      return multiply(binary.getLHS(), apply) &&
             multiply(binary.getRHS(), apply);
    auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
    Value operand = operandOf(binary.getLHS());
    if (binary.getKind() != AffineExprKind::CeilDiv || !divisor || !operand ||
        divisor.getValue() < 1 || divisor.getValue() > INT32_MAX)
      return false;
    return takeTerm(describeSize(operand), divisor.getValue());
  }
};
} // namespace

/// Describes a launch dimension as the ABI writes it: a number, or a
/// workgroup count over dynamic sizes (`argN.dimD` or `ceildiv argN.dimD
/// S`, several joined by `*`), times a constant where it is one
/// (`argN.dimD * argM.dimE * C`: grid z of linearized batch loops, some of
/// them dynamic).
static FailureOr<std::string> describeLaunchDimension(Value value,
                                                      func::FuncOp host,
                                                      Operation *user,
                                                      StringRef what) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return std::to_string(*constant);
  LaunchCountProduct product{host};
  if (product.multiply(value) && !product.terms.empty()) {
    if (product.factor != 1)
      product.terms.push_back(std::to_string(product.factor));
    return llvm::join(product.terms, " * ");
  }
  user->emitOpError() << "has a " << what
                      << " that the kernel ABI cannot express (a constant, "
                         "or a product of up to "
                      << gpucg::kMaxGridSizeTerms
                      << " dimensions of arguments, each or its ceildiv by "
                         "a constant, and a constant)";
  return failure();
}

static std::string describeType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto memref = dyn_cast<MemRefType>(type)) {
    os << "memref " << memref.getElementType() << " ";
    if (memref.getRank() == 0)
      os << "scalar";
    gpucg::printShape(os, memref.getShape());
    return text;
  }
  os << "scalar " << type;
  return text;
}

/// Whether `collapse` merges its source's leading dimensions into one and
/// keeps the others: a batch's matrices as one, their rows stacked.
static bool collapsesLeadingDims(memref::CollapseShapeOp collapse) {
  SmallVector<ReassociationIndices> groups = collapse.getReassociationIndices();
  return llvm::all_of(llvm::drop_begin(groups),
                      [](const auto &group) { return group.size() == 1; });
}

/// `function_argument J tensor_map ELT SHAPE box B0xB1... swizzle S` for a
/// kernel operand that is a TMA tensor map the host builds on its argument
/// `J` (`nvgpu.tma.create.descriptor` of a `memref.cast` of it, or of a
/// `memref.collapse_shape` of its leading dimensions into one, whose map
/// the box's fewer sizes describe): what a launcher passes to
/// cuTensorMapEncodeTiled.
static FailureOr<std::string> describeTensorMap(nvgpu::TmaCreateDescriptorOp op,
                                                func::FuncOp host,
                                                gpu::LaunchFuncOp launch,
                                                unsigned index) {
  auto cast = op.getTensor().getDefiningOp<memref::CastOp>();
  Value source = cast ? cast.getSource() : Value();
  if (auto collapse =
          source ? source.getDefiningOp<memref::CollapseShapeOp>() : nullptr;
      collapse && collapsesLeadingDims(collapse))
    source = collapse.getSrc();
  auto arg = dyn_cast_or_null<BlockArgument>(source);
  auto type = arg ? dyn_cast<MemRefType>(arg.getType()) : MemRefType();
  if (!arg || arg.getOwner() != &host.getBody().front() || !type ||
      !type.getLayout().isIdentity()) {
    launch.emitOpError()
        << "passes kernel operand #" << index
        << ", a tensor map that is not built on an identity-layout memref "
           "argument of @"
        << host.getSymName()
        << " (or on one with its leading dimensions collapsed into one); "
           "the kernel ABI describes arguments only";
    return failure();
  }
  SmallVector<int64_t> box;
  for (Value size : op.getBoxDimensions()) {
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (!constant) {
      op.emitOpError() << "has a box size that is not a constant; the kernel "
                          "ABI describes constant boxes";
      return failure();
    }
    box.push_back(*constant);
  }
  nvgpu::TensorMapDescriptorType mapType = op.getTensorMap().getType();
  if (mapType.getInterleave() !=
          nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE ||
      mapType.getL2promo() != nvgpu::TensorMapL2PromoKind::L2PROMO_NONE ||
      mapType.getOob() != nvgpu::TensorMapOOBKind::OOB_ZERO) {
    op.emitOpError() << "has a tensor map of type " << mapType
                     << "; the kernel ABI describes maps without interleave "
                        "or L2 promotion that fill out-of-bounds with zero";
    return failure();
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "function_argument " << arg.getArgNumber() << " tensor_map "
     << describeType(type).substr(strlen("memref ")) << " box ";
  llvm::interleave(box, os, "x");
  // nvgpu's own spelling less its prefix: none, 32b, 64b, 128b.
  StringRef swizzle =
      nvgpu::stringifyTensorMapSwizzleKind(mapType.getSwizzle());
  swizzle.consume_front("swizzle_");
  os << " swizzle " << swizzle;
  return text;
}

static StringRef fileExtension(gpu::CompilationTarget format) {
  switch (format) {
  case gpu::CompilationTarget::Assembly:
    return "ptx";
  case gpu::CompilationTarget::Binary:
    return "cubin";
  case gpu::CompilationTarget::Fatbin:
    return "fatbin";
  case gpu::CompilationTarget::Offload:
    return "bc";
  }
  return "bin";
}

bool gpucg::canPassBarePointers(TypeRange types) {
  return llvm::all_of(types, [](Type type) {
    auto memref = dyn_cast<MemRefType>(type);
    return !memref ||
           (memref.hasStaticShape() && memref.getLayout().isIdentity());
  });
}

/// The function arguments of `host` that `launch` passes to its kernel,
/// as memrefs or as the tensor maps built on them.
static llvm::SmallDenseSet<unsigned>
getLaunchedFunctionArguments(gpu::LaunchFuncOp launch, func::FuncOp host) {
  llvm::SmallDenseSet<unsigned> numbers;
  Block *entry = &host.getBody().front();
  for (Value operand : launch.getKernelOperands()) {
    if (auto map = operand.getDefiningOp<nvgpu::TmaCreateDescriptorOp>())
      if (auto cast = map.getTensor().getDefiningOp<memref::CastOp>())
        operand = cast.getSource();
    if (auto arg = dyn_cast<BlockArgument>(operand))
      if (arg.getOwner() == entry)
        numbers.insert(arg.getArgNumber());
  }
  return numbers;
}

/// `result J D0 D1 ...` for each argument of `host` that
/// gpucg-results-to-out-params made of a returned buffer (its
/// gpucg.result sizes: a number, `argN.dimD` or `?`) and that `launch`
/// passes: an output the caller may leave to the runtime to allocate.
static LogicalResult describeResults(gpu::LaunchFuncOp launch,
                                     func::FuncOp host, raw_ostream &os) {
  llvm::SmallDenseSet<unsigned> launched =
      getLaunchedFunctionArguments(launch, host);
  for (BlockArgument arg : host.getArguments()) {
    Attribute attr = host.getArgAttr(arg.getArgNumber(),
                                     gpucg::kResultAttrName);
    if (!attr || !launched.contains(arg.getArgNumber()))
      continue;
    auto sizes = dyn_cast<ArrayAttr>(attr);
    auto type = dyn_cast<MemRefType>(arg.getType());
    auto isSize = [](Attribute size) {
      if (auto text = dyn_cast<StringAttr>(size))
        return text.getValue() == "?" ||
               gpucg::parseArgumentDimension(text.getValue()).has_value();
      return isa<IntegerAttr>(size);
    };
    if (!sizes || !type ||
        sizes.size() != static_cast<size_t>(type.getRank()) ||
        !llvm::all_of(sizes, isSize))
      return host.emitOpError()
             << "has argument #" << arg.getArgNumber() << " with "
             << gpucg::kResultAttrName << " = " << attr
             << ", which is not one size per dimension of its memref type "
             << arg.getType()
             << " (an integer, \"argN.dimD\" or \"?\")";
    os << "result " << arg.getArgNumber();
    for (Attribute size : sizes) {
      if (auto number = dyn_cast<IntegerAttr>(size))
        os << " " << number.getInt();
      else
        os << " " << cast<StringAttr>(size).getValue();
    }
    os << "\n";
  }
  return success();
}

namespace {
/// Describes launched kernels as their .abi files say.
struct KernelDescriber {
  bool useBarePointers;

  FailureOr<gpucg::KernelExport>
  describe(gpu::LaunchFuncOp launch, func::FuncOp host, SymbolTable &symbols) {
    StringRef moduleName = launch.getKernelModuleName().getValue();
    StringRef kernelName = launch.getKernelName().getValue();
    auto binary = symbols.lookup<gpu::BinaryOp>(moduleName);
    if (!binary) {
      launch.emitOpError() << "launches '" << moduleName
                           << "', which is not a gpu.binary: run "
                              "gpu-module-to-binary first";
      return failure();
    }
    if (binary.getObjects().size() != 1) {
      binary.emitOpError() << "has " << binary.getObjects().size()
                           << " objects; the kernel ABI describes one";
      return failure();
    }
    auto object = cast<gpu::ObjectAttr>(binary.getObjects()[0]);
    auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
    if (!target) {
      binary.emitOpError() << "holds an object for " << object.getTarget()
                           << "; gpucg exports NVVM objects only";
      return failure();
    }

    gpucg::KernelExport abi;
    abi.kernelName = kernelName.str();
    abi.binaryFileName =
        (kernelName + "." + fileExtension(object.getFormat())).str();
    abi.abiFileName = (kernelName + ".abi").str();
    abi.binary = object.getObject().getValue();
    llvm::raw_string_ostream os(abi.abi);
    os << "# gpucg kernel ABI (docs/ABI.md)\n";
    os << "abi " << kAbiVersion << "\n";
    os << "function " << host.getSymName() << "\n";
    os << "kernel " << kernelName << "\n";
    os << "binary " << abi.binaryFileName << "\n";
    os << "format " << fileExtension(object.getFormat()) << "\n";
    os << "chip " << target.getChip() << "\n";
    bool barePointers =
        useBarePointers &&
        gpucg::canPassBarePointers(launch.getKernelOperands().getTypes());
    os << "calling_convention "
       << (barePointers ? "bare_pointers" : "memref_descriptors") << "\n";

    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    for (auto [name, dims] :
         {std::pair<StringRef, gpu::KernelDim3>{"grid", grid},
          std::pair<StringRef, gpu::KernelDim3>{"block", block}}) {
      for (auto [axis, value] : llvm::zip_equal(
               StringRef("xyz"), SmallVector<Value>{dims.x, dims.y, dims.z})) {
        FailureOr<std::string> text = describeLaunchDimension(
            value, host, launch, (name + " size").str());
        if (failed(text))
          return failure();
        os << name << "_" << axis << " " << *text << "\n";
      }
    }
    int64_t dynamicSharedMemory = 0;
    if (Value bytes = launch.getDynamicSharedMemorySize()) {
      std::optional<int64_t> constant = getConstantIntValue(bytes);
      if (!constant) {
        launch.emitOpError() << "has a dynamic shared memory size that is "
                                "not a constant";
        return failure();
      }
      dynamicSharedMemory = *constant;
    }
    os << "dynamic_shared_memory " << dynamicSharedMemory << "\n";
    abi.dynamicSharedBytes = dynamicSharedMemory;
    abi.threads = 1;
    for (Value size : {block.x, block.y, block.z}) {
      std::optional<int64_t> constant = getConstantIntValue(size);
      abi.threads = constant && abi.threads ? abi.threads * *constant : 0;
    }
    if (object.getFormat() == gpu::CompilationTarget::Binary) {
      abi.resources =
          gpucg::readCubinResources(abi.binary, kernelName, abi.resourceError);
      gpucg::TargetAttr chip = gpucg::getTarget(host);
      if (!chip || chip.getChip() != target.getChip())
        chip = gpucg::TargetAttr::getForChip(launch.getContext(),
                                             target.getChip());
      if (abi.resources && chip)
        abi.occupancy = gpucg::computeOccupancy(
            chip, *abi.resources, abi.threads, abi.dynamicSharedBytes);
    }

    os << "arguments " << launch.getNumKernelOperands() << "\n";
    for (auto [index, operand] : llvm::enumerate(launch.getKernelOperands())) {
      if (auto tensorMap =
              operand.getDefiningOp<nvgpu::TmaCreateDescriptorOp>()) {
        FailureOr<std::string> text =
            describeTensorMap(tensorMap, host, launch, index);
        if (failed(text))
          return failure();
        os << "argument " << index << " " << *text << "\n";
        continue;
      }
      auto arg = dyn_cast<BlockArgument>(operand);
      if (!arg || arg.getOwner() != &host.getBody().front()) {
        launch.emitOpError()
            << "passes kernel operand #" << index << " that is not an "
            << "argument of @" << host.getSymName()
            << "; the kernel ABI describes arguments only";
        return failure();
      }
      os << "argument " << index << " function_argument "
         << arg.getArgNumber() << " " << describeType(arg.getType()) << "\n";
    }
    if (failed(describeResults(launch, host, os)))
      return failure();
    return abi;
  }
};
} // namespace

FailureOr<std::vector<gpucg::KernelExport>>
gpucg::describeKernels(ModuleOp module, bool useBarePointers) {
  SymbolTable symbols(module);
  KernelDescriber describer{useBarePointers};
  std::vector<KernelExport> kernels;
  WalkResult result = module.walk([&](gpu::LaunchFuncOp launch) {
    auto host = launch->getParentOfType<func::FuncOp>();
    if (!host) {
      launch.emitOpError() << "is not in a func.func";
      return WalkResult::interrupt();
    }
    FailureOr<KernelExport> abi = describer.describe(launch, host, symbols);
    if (failed(abi))
      return WalkResult::interrupt();
    kernels.push_back(std::move(*abi));
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  return kernels;
}

namespace {
struct ExportKernelsPass
    : public gpucg::impl::ExportKernelsBase<ExportKernelsPass> {
  using Base::Base;

  /// Says what each cubin kernel got from ptxas: with `report`, a remark on
  /// its launch; always, a warning for a kernel that spills (nothing a
  /// kernel loses to spills goes unsaid).
  void reportResources(ArrayRef<gpucg::KernelExport> kernels) {
    SmallVector<gpu::LaunchFuncOp> launches;
    getOperation().walk(
        [&](gpu::LaunchFuncOp launch) { launches.push_back(launch); });
    for (auto [kernel, launch] : llvm::zip_equal(kernels, launches)) {
      if (!kernel.resourceError.empty()) {
        launch.emitWarning()
            << "cannot read the resources of kernel " << kernel.kernelName
            << " from its cubin: " << kernel.resourceError;
        continue;
      }
      if (!kernel.resources)
        continue;
      if (report)
        launch.emitRemark() << gpucg::describeResources(
            kernel.kernelName, *kernel.resources, kernel.occupancy,
            kernel.threads, kernel.dynamicSharedBytes);
      if (kernel.resources->stackFrameBytes > 0)
        launch.emitWarning()
            << "kernel " << kernel.kernelName
            << " spills: " << kernel.resources->stackFrameBytes
            << " bytes of stack per thread hold registers that did not fit ("
            << kernel.resources->registers
            << " registers); a smaller warp tile or fewer stages in its "
               "plan (gpucg.compilation_info) keeps them in registers";
    }
  }

  LogicalResult write(StringRef name, StringRef contents) {
    SmallString<256> path(outputDir);
    llvm::sys::path::append(path, name);
    std::string error;
    auto file = mlir::openOutputFile(path, &error);
    if (!file)
      return getOperation().emitError() << "cannot write " << path << ": "
                                        << error;
    file->os() << contents;
    file->keep();
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<std::vector<gpucg::KernelExport>> kernels =
        gpucg::describeKernels(module, useBarePointers);
    if (failed(kernels))
      return signalPassFailure();
    reportResources(*kernels);
    if (outputDir.empty())
      return;
    if (std::error_code error =
            llvm::sys::fs::create_directories(outputDir)) {
      module.emitError() << "cannot create " << outputDir << ": "
                         << error.message();
      return signalPassFailure();
    }
    for (const gpucg::KernelExport &kernel : *kernels) {
      if (failed(write(kernel.binaryFileName, kernel.binary)) ||
          failed(write(kernel.abiFileName, kernel.abi)))
        return signalPassFailure();
    }
  }
};
} // namespace

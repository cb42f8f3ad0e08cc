//===- UOpBase.td - uop dialect definition and shared constraints ---------===//
//
// tinygrad's UOp IR as an MLIR dialect. This file holds the dialect, the enums
// and the type constraints every op file uses.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_BASE_TD
#define UOP_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinTypes.td"

def UOp_Dialect : Dialect {
  let name = "uop";
  let cppNamespace = "::mlir::uop";
  let hasConstantMaterializer = 1;
  let hasCanonicalizer = 1;
  let summary = "tinygrad's UOp IR";
  let description = [{
    The `uop` dialect models tinygrad's UOp IR (tinygrad at commit b73e89110e,
    July 2025) one op per UOp. A kernel (`uop.kernel`) holds one kernel AST
    ending in `uop.sink`, exactly as tinygrad's scheduler produces it; the same
    ops also express the lowered form (RANGE, INDEX, REDUCE, DEFINE_REG, ...).

    tinygrad dtypes map onto MLIR types:

    | tinygrad | MLIR |
    | --- | --- |
    | bool | `i1` |
    | int8 .. int64 | `si8` .. `si64` |
    | uint8 .. uint64 | `ui8` .. `ui64` |
    | half, bfloat16, float, double | `f16`, `bf16`, `f32`, `f64` |
    | float8_e4m3, float8_e5m2 | `f8E4M3FN`, `f8E5M2` |
    | dtype.vec(n) | `vector<n x T>` |
    | dtype.ptr(size, local) | `!uop.ptr<T, size, space>`, space one of global, local, reg |
    | void | `!uop.void` (also the type of effects: STORE, BARRIER, IF) |

    Integers keep their signedness in the type because tinygrad's division,
    shifts, comparisons and casts depend on it; signless integers other than
    `i1` are rejected. Tensor-level ops (the graph before kernelization) use
    ranked `tensor<...>` types so that movement ops can be verified locally.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // The attributes the dialect's passes put on ops of other dialects (and on
  // uop.kernel), each declared once here: `uop.<name>`.
  let discardableAttrs = (ins
    // builtin.module: the GPU target (uop-attach-target).
    "::mlir::uop::TargetAttr":$target,
    // builtin.module: {kernel name: {grid, block}} (convert-uop-to-gpu).
    "::mlir::DictionaryAttr":$launch,
    // builtin.module: {kernel name: [variable names]}, the scalar arguments
    // after the buffers of a symbolic kernel (convert-uop-to-scf).
    "::mlir::DictionaryAttr":$variables,
    // uop.kernel: the opts to apply instead of the heuristic ("" for none).
    "::mlir::StringAttr":$opts,
    // uop.kernel: what uop-optimize decided (uop-lower reads it).
    "::mlir::uop::KernelInfoAttr":$kernel_info,
    // the module or gpu.module convert-nvvm-to-sim or uop-check-host-accesses
    // rewrote: the op and location of each checked site (memory access,
    // barrier, ...), for the runtime's errors.
    "::mlir::ArrayAttr":$sites,
    // the module or gpu.module convert-nvvm-to-sim rewrote: (bytes,
    // alignment) of each shared-memory array.
    "::mlir::DenseI64ArrayAttr":$sim_shared,
    // the module or gpu.module convert-nvvm-to-sim rewrote: per basic block
    // it numbered, its instructions by class (sim::InstrClass), row-major.
    "::mlir::DenseI64ArrayAttr":$sim_blocks,
    // uop.const of a tensor (tensor graph): the device the constant is on
    // (tinygrad's CONST(VIEW(DEVICE))); on a schedule's argument, the
    // buffer's device.
    "::mlir::StringAttr":$device,
    // an argument of a schedule (uop-kernelize): the buffer's number.
    "::mlir::IntegerAttr":$unique,
    // a schedule (uop-kernelize): where each result of the tensor graph is,
    // {unique, st} (a view of a buffer) or {value} (a constant).
    "::mlir::ArrayAttr":$outputs
  );
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerTypes();
    void registerAttributes();
  }];
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

def UOp_AddressSpace : I32EnumAttr<"AddressSpace", "memory a pointer points into", [
    I32EnumAttrCase<"global", 0>,
    I32EnumAttrCase<"local", 1>,
    I32EnumAttrCase<"reg", 2>,
    // Ours: the shared memory of every block of a thread-block cluster
    // (`uop.cluster_map`; PTX's shared::cluster window).
    I32EnumAttrCase<"cluster", 3>
  ]> {
  let cppNamespace = "::mlir::uop";
  let genSpecializedAttr = 0;
}

def UOp_AxisKind : I32EnumAttr<"AxisKind", "the role of a RANGE", [
    I32EnumAttrCase<"global", 0>,
    I32EnumAttrCase<"local", 1>,
    I32EnumAttrCase<"loop", 2>,
    I32EnumAttrCase<"group_reduce", 3>,
    I32EnumAttrCase<"reduce", 4>,
    I32EnumAttrCase<"upcast", 5>,
    I32EnumAttrCase<"unroll", 6>
  ]> {
  let cppNamespace = "::mlir::uop";
}

def UOp_ReduceKind : I32EnumAttr<"ReduceKind", "the binary op of a reduction", [
    I32EnumAttrCase<"add", 0>,
    I32EnumAttrCase<"mul", 1>,
    I32EnumAttrCase<"max", 2>
  ]> {
  let cppNamespace = "::mlir::uop";
}

//===----------------------------------------------------------------------===//
// Type constraints: tinygrad dtypes
//===----------------------------------------------------------------------===//

def UOp_Bool : TypeAlias<I1, "bool">;
def UOp_SInt : AnyTypeOf<[SI8, SI16, SI32, SI64], "signed integer">;
def UOp_UInt : AnyTypeOf<[UI8, UI16, UI32, UI64], "unsigned integer">;
def UOp_Int : AnyTypeOf<[UOp_SInt, UOp_UInt], "integer">;
def UOp_Float : AnyTypeOf<[F16, BF16, F32, F64, F8E4M3FN, F8E5M2], "float">;
def UOp_Scalar : AnyTypeOf<[UOp_Bool, UOp_Int, UOp_Float], "tinygrad scalar dtype">;

// dtype.vec(n): only vectors of tinygrad scalars.
def UOp_Vector : Type<And<[IsVectorOfNonZeroRankTypePred, IsFixedVectorOfRankPred<[1]>,
    SubstLeaves<"$_self", "::llvm::cast<::mlir::VectorType>($_self).getElementType()",
                UOp_Scalar.predicate>]>, "vector of tinygrad scalars", "::mlir::VectorType">;

def UOp_DType : AnyTypeOf<[UOp_Scalar, UOp_Vector], "tinygrad dtype">;

def UOp_Tensor : Type<And<[IsTensorTypePred, HasStaticShapePred,
    SubstLeaves<"$_self", "::llvm::cast<::mlir::ShapedType>($_self).getElementType()",
                UOp_Scalar.predicate>]>, "statically shaped tensor of tinygrad scalars",
    "::mlir::RankedTensorType">;

// What an ALU op computes on: a dtype in a kernel, a tensor in the tensor graph.
def UOp_Value : AnyTypeOf<[UOp_DType, UOp_Tensor], "tinygrad value">;

def UOp_BoolLike : Type<CPred<"::mlir::uop::isBoolLike($_self)">,
    "bool, vector of bool or tensor of bool">;
def UOp_IntLike : Type<CPred<"::mlir::uop::isIntLike($_self)">,
    "integer, or vector or tensor of integers">;
def UOp_IntOrBoolLike : Type<CPred<"::mlir::uop::isIntOrBoolLike($_self)">,
    "integer or bool, or vector or tensor of them">;
def UOp_FloatLike : Type<CPred<"::mlir::uop::isFloatLike($_self)">,
    "float, or vector or tensor of floats">;
def UOp_ScalarIntLike : Type<CPred<"::mlir::uop::isIntLike($_self) && !::llvm::isa<::mlir::TensorType>($_self)">,
    "integer or vector of integers">;

#endif // UOP_BASE_TD

//===- UOpOps.td - uop dialect operations ----------------------------------===//
//
// One op per tinygrad UOp. Each op's description names the tinygrad op and
// its sources/arg so that the import/export of tinygrad's JSON can map one to
// one. Verifiers enforce what tinygrad's uop/spec.py (type_verify, ast_spec)
// enforces.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_OPS_TD
#define UOP_OPS_TD

include "uop/Dialect/UOp/IR/UOpBase.td"
include "uop/Dialect/UOp/IR/UOpTypes.td"
include "uop/Dialect/UOp/IR/UOpAttrs.td"
include "uop/Dialect/UOp/IR/UOpInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/InferIntRangeInterface.td"

// A tinygrad UOp: `tinygradName` is its member of tinygrad's Ops.
class UOp_Op<string mnemonic, list<Trait> traits = [],
             string tinygradName = !toupper(mnemonic)>
    : Op<UOp_Dialect, mnemonic,
         !listconcat(traits, [DeclareOpInterfaceMethods<UOp_TinygradOpInterface>])> {
  let extraClassDefinition = [{
    ::llvm::StringRef $cppClass::getTinygradName() { return "}] # tinygradName # [{"; }
  }];
}

// tinygrad's vmin/vmax: integer (and bool) results have a value range, given
// through MLIR's interface so upstream range analysis and our rewrite rules
// share one definition (UOpRanges.cpp).
def UOp_IntRange : DeclareOpInterfaceMethods<InferIntRangeInterface,
                                             ["inferResultRangesFromOptional"]>;

// No C++ class on purpose: the assembly format then prints the full
// `!uop.ptr<...>` rather than the stripped `<...>`.
def UOp_AnyPtr : Type<CPred<"::llvm::isa<::mlir::uop::PtrType>($_self)">, "uop pointer">;
def UOp_Void : Type<CPred<"::llvm::isa<::mlir::uop::VoidType>($_self)">, "uop void",
                    "::mlir::uop::VoidType">,
               BuildableType<"::mlir::uop::VoidType::get($_builder.getContext())">;
// What VECTORIZE/GEP/CAST move around: a dtype, or a pointer (tinygrad
// vectorizes pointers too).
def UOp_DTypeOrPtr : AnyTypeOf<[UOp_DType, UOp_AnyPtr]>;
def UOp_ValueOrPtr : AnyTypeOf<[UOp_Value, UOp_AnyPtr]>;

//===----------------------------------------------------------------------===//
// Kernel container and SINK
//===----------------------------------------------------------------------===//

// Not a UOp: holds one kernel AST (tinygrad's KERNEL op holds more).
def UOp_KernelOp : Op<UOp_Dialect, "kernel", [Symbol, IsolatedFromAbove, SingleBlock]> {
  let summary = "one kernel AST: a symbol whose body ends in uop.sink";
  let description = [{
    Holds one tinygrad kernel AST (the `ast` of a ScheduleItem): buffers are
    `uop.define_global` ops inside the body, numbered by their index, and the
    body ends in `uop.sink` of the kernel's STOREs.

    ```mlir
    uop.kernel @add {
      %0 = uop.define_global 0 : !uop.ptr<f32, 16>
      ...
      uop.sink %s
    }
    ```
    The verifier checks what tinygrad's ast_spec checks: DEFINE_GLOBAL
    indices are unique, all sources of an op that have a shape share it,
    REDUCE_AXIS axes are inside the rank, and every dimension across the
    kernel is either 1 or one common size n.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let hasRegionVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
  let extraClassDeclaration = [{
    ::mlir::Block &getBodyBlock() { return getBody().front(); }
    /// The kernel's uop.sink.
    class SinkOp getSink();
  }];
}

def UOp_SinkOp : UOp_Op<"sink", [Terminator, HasParent<"KernelOp">, Pure]> {
  let summary = "SINK: the root of a kernel AST";
  let description = [{
    tinygrad's SINK: its sources are the kernel's effects (STOREs).

    ```mlir
    uop.sink %store0, %store1
    ```
  }];
  let arguments = (ins Variadic<UOp_Void>:$srcs);
  let assemblyFormat = "($srcs^)? attr-dict";
}

def UOp_ExecOp : Op<UOp_Dialect, "exec", [MemoryEffects<[MemRead, MemWrite]>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run a kernel on buffers (one item of a schedule)";
  let description = [{
    tinygrad's ExecItem: runs the `uop.kernel` named by `kernel` with buffer
    i bound to its DEFINE_GLOBAL i. `uop-kernelize` writes a schedule as a
    function of these, in tinygrad's order, on memrefs (the buffers): each
    memref has the element type and size of the kernel's pointer.

    ```mlir
    uop.exec @k0(%out, %a, %b) : memref<16xf32>, memref<16xf32>, memref<16xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel, Variadic<AnyStaticShapeMemRef>:$buffers);
  let assemblyFormat = "$kernel `(` $buffers `)` attr-dict `:` type($buffers)";
}

//===----------------------------------------------------------------------===//
// Buffers and defines
//===----------------------------------------------------------------------===//

def UOp_DefineGlobalOp : UOp_Op<"define_global", [Pure]> {
  let summary = "DEFINE_GLOBAL: the kernel argument with the given index";
  let description = [{
    tinygrad's DEFINE_GLOBAL (arg: the buffer index). The pointer type gives
    the element dtype, the element count and the address space (global).

    ```mlir
    %0 = uop.define_global 0 : !uop.ptr<f32, 400>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$index);
  let results = (outs UOp_AnyPtr:$result);
  let assemblyFormat = "$index attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def UOp_DefineLocalOp : UOp_Op<"define_local", [Pure]> {
  let summary = "DEFINE_LOCAL: a shared-memory buffer";
  let description = [{
    tinygrad's DEFINE_LOCAL (arg: its name). The pointer must be `local`.
    A staged tensor-core operand's buffer has a `swizzle` (`#uop.swizzle`):
    every index into it is stored at its swizzled place (`uop-lower` applies
    it), so the buffer must be a whole number of the swizzle's periods.

    ```mlir
    %t = uop.define_local "temp0" : !uop.ptr<f32, 16, local>
    %a = uop.define_local "tc_a" {swizzle = #uop.swizzle<2, 4, 3>} : !uop.ptr<f16, 8192, local>
    ```
  }];
  let arguments = (ins StrAttr:$name, OptionalAttr<UOp_SwizzleAttr>:$swizzle);
  let results = (outs UOp_AnyPtr:$result);
  let assemblyFormat = "$name attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def UOp_ClusterMapOp : Op<UOp_Dialect, "cluster_map", [Pure]> {
  let summary = "a shared-memory buffer as every block of the cluster has it";
  let description = [{
    Ours, not tinygrad's (sm_90: distributed shared memory). Without a
    rank, the result points at the copies of the `local` buffer `buf` (a
    `define_local`, n elements) that the `blocks` blocks of a thread-block
    cluster each hold, one after the other by `%cluster_ctarank`: element
    i is element i % n of block i / n's copy. A store through it may land
    in another block's shared memory; a `barrier cluster` orders it before
    that block's reads (`uop-lower` makes the barrier of a load after such
    a store the cluster's). The kernel must be launched in clusters of
    `blocks` blocks (its `#uop.kernel_info`'s `cluster`), and `buf` must not
    be swizzled.

    `uop-lower` indexes block `rank`'s copy instead (the form with a rank,
    n elements): PTX's `mapa`, and loads and stores `.shared::cluster`.

    ```mlir
    %d = uop.define_local "splitk" : !uop.ptr<f32, 4096, local>
    %c = uop.cluster_map %d blocks 2 : !uop.ptr<f32, 4096, local> -> !uop.ptr<f32, 8192, cluster>
    %p = uop.cluster_map %d rank %r blocks 2 : !uop.ptr<f32, 4096, local>, si32 -> !uop.ptr<f32, 4096, cluster>
    ```
  }];
  let arguments = (ins UOp_AnyPtr:$buf, Optional<UOp_Int>:$rank, I64Attr:$blocks);
  let results = (outs UOp_AnyPtr:$result);
  let assemblyFormat = [{
    $buf (`rank` $rank^)? `blocks` $blocks attr-dict `:` type($buf) (`,` type($rank)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

def UOp_DefineRegOp : UOp_Op<"define_reg", [Pure, AllTypesMatch<["init", "result"]>]> {
  let summary = "DEFINE_REG: an accumulator register initialised per iteration of ranges";
  let description = [{
    tinygrad's DEFINE_REG: sources (init, *ranges), arg (accumulator number,).
    The accumulator has the init value's dtype and is reset to it at the start
    of the given ranges; ASSIGN updates it.

    ```mlir
    %acc = uop.define_reg %zero [%r0 : si32] id 0 : f32
    ```
  }];
  let arguments = (ins UOp_DType:$init, Variadic<UOp_Int>:$ranges,
                       ConfinedAttr<I64Attr, [IntNonNegative]>:$id);
  let results = (outs UOp_DType:$result);
  let assemblyFormat = [{
    $init ` ` `[` ($ranges^ `:` type($ranges))? `]` `id` $id attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
}

def UOp_DefineVarOp : UOp_Op<"define_var", [Pure, UOp_IntRange, UOp_GroupIrreducible,
    DeclareOpInterfaceMethods<UOp_BufferOpInterface>]> {
  let summary = "DEFINE_VAR: a symbolic integer with inclusive bounds";
  let description = [{
    tinygrad's DEFINE_VAR (arg: (name, min, max)).

    ```mlir
    %n = uop.define_var "n" [1, 10] : si32
    ```
  }];
  let arguments = (ins StrAttr:$name, I64Attr:$min, I64Attr:$max);
  let results = (outs UOp_Int:$result);
  let assemblyFormat = "$name ` ` `[` $min `,` $max `]` attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def UOp_SpecialOp : UOp_Op<"special", [Pure, UOp_IntRange, UOp_GroupIrreducible,
    OptionalTypesMatchWith<"a symbolic size has the index's type", "result", "dynamicSize",
                           "$_self">]> {
  let summary = "SPECIAL: a grid or block index";
  let description = [{
    tinygrad's SPECIAL (arg: (name, size)): `gidxN` is the block index and
    `lidxN` the thread index in dimension N (0..2), `idxN` a global index
    computed from both; the value lies in [0, size).

    In a symbolic kernel (tinygrad's Variables) the size may be a value
    computed from the kernel's `uop.define_var`s, known at launch; `size` is
    then its upper bound, and the launch dimension is that value.

    ```mlir
    %g = uop.special "gidx0" 16 : si32
    %h = uop.special "gidx1" size %n max 15 : si32
    ```
  }];
  let arguments = (ins StrAttr:$name, ConfinedAttr<I64Attr, [IntPositive]>:$size,
                       Optional<UOp_Int>:$dynamicSize);
  let results = (outs UOp_Int:$result);
  let assemblyFormat = [{
    $name (`size` $dynamicSize^ `max`)? $size attr-dict `:` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
  let builders = [OpBuilder<(ins "::mlir::Type":$type, "::llvm::StringRef":$name,
                                 "int64_t":$size, CArg<"::mlir::Value", "{}">:$dynamicSize)>];
  let extraClassDeclaration = [{
    /// The dimension the name ends with: 0 (x), 1 (y) or 2 (z).
    unsigned getDim() { return getName().back() - '0'; }
    /// gidxN: a block index.
    bool isBlockIndex() { return getName().starts_with("gidx"); }
    /// lidxN: a thread index within the block.
    bool isThreadIndex() { return getName().starts_with("lidx"); }
    // Otherwise idxN: a global thread index (block * block size + thread).
  }];
}

def UOp_RangeOp : UOp_Op<"range", [Pure, UOp_IntRange, UOp_GroupIrreducible,
    AllTypesMatch<["end", "result"]>]> {
  let summary = "RANGE: a loop index in [0, end)";
  let description = [{
    tinygrad's RANGE: source the end, arg the axis number; the kind says what
    the axis is for (global, local, loop, reduce, upcast, unroll, group_reduce).

    ```mlir
    %r = uop.range %c16 axis 2 reduce : si32
    ```
  }];
  let arguments = (ins UOp_Int:$end, ConfinedAttr<I64Attr, [IntNonNegative]>:$axis,
                       UOp_AxisKind:$kind);
  let results = (outs UOp_Int:$result);
  let assemblyFormat = "$end `axis` $axis $kind attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Views
//===----------------------------------------------------------------------===//

def UOp_ViewOp : UOp_Op<"view", [Pure]> {
  let summary = "VIEW: a ShapeTracker over a buffer, a tensor, or nothing";
  let description = [{
    tinygrad's VIEW (arg: a ShapeTracker). Three forms:
    - of a pointer (a buffer in a kernel AST): the result has the pointer's type,
      and where the pointer's size is known every element the view can reach
      (its first view over the valid part of its mask) is inside the buffer;
    - without a source: `!uop.void`, only gives a CONST or VALID its shape;
    - of a tensor (tensor graph): the result is a tensor of the view's shape.

    ```mlir
    %v = uop.view %buf [#uop.view<shape = [4, 4], strides = [4, 1]>] : !uop.ptr<f32, 16>
    %s = uop.view [#uop.view<shape = [4, 4], strides = [0, 0]>] : !uop.void
    %t = uop.view %x [#uop.view<shape = [4, 4], strides = [1, 4]>] : tensor<16xf32> -> tensor<4x4xf32>
    ```
  }];
  let arguments = (ins Optional<AnyTypeOf<[UOp_AnyPtr, UOp_Tensor]>>:$src,
                       UOp_ShapeTrackerAttr:$st);
  let results = (outs AnyTypeOf<[UOp_AnyPtr, UOp_Tensor, UOp_Void]>:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<int64_t> getShape() { return getSt().getShape(); }
    ::llvm::LogicalResult verifyInBounds(PtrType ptr);
    ::llvm::LogicalResult verifyInBounds(PtrType ptr, ViewAttr first);
    ::llvm::LogicalResult verifySymbolic();
  }];
}

def UOp_ValidOp : UOp_Op<"valid", [Pure, DeclareOpInterfaceMethods<UOp_BufferOpInterface>]> {
  let summary = "VALID: true where the index is inside every mask of the view";
  let description = [{
    tinygrad's VALID(VIEW): a bool with the view's shape.

    ```mlir
    %ok = uop.valid %view
    ```
  }];
  let arguments = (ins UOp_Void:$view);
  let results = (outs I1:$result);
  let assemblyFormat = "$view attr-dict";
  let hasVerifier = 1;
}

class UOp_MovementOp<string mnemonic, list<Trait> traits = []>
    : UOp_Op<mnemonic, !listconcat(traits, [Pure, UOp_GroupMovement])> {
  let results = (outs UOp_Tensor:$result);
  let hasVerifier = 1;
}

def UOp_ReshapeOp : UOp_MovementOp<"reshape"> {
  let summary = "RESHAPE (tensor graph): same elements, new shape";
  let description = [{
    ```mlir
    %r = uop.reshape %x : tensor<4x4xf32> -> tensor<2x8xf32>
    ```
    The new shape (tinygrad's arg) is the result type's shape.
  }];
  let arguments = (ins UOp_Tensor:$src);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def UOp_PermuteOp : UOp_MovementOp<"permute"> {
  let summary = "PERMUTE (tensor graph): reorder axes";
  let description = [{
    ```mlir
    %t = uop.permute %x [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
    ```
  }];
  let arguments = (ins UOp_Tensor:$src, DenseI64ArrayAttr:$order);
  let assemblyFormat = "$src $order attr-dict `:` type($src) `->` type($result)";
}

def UOp_ExpandOp : UOp_MovementOp<"expand"> {
  let summary = "EXPAND (tensor graph): broadcast size-1 axes";
  let description = [{
    ```mlir
    %e = uop.expand %x : tensor<1x4xf32> -> tensor<3x4xf32>
    ```
  }];
  let arguments = (ins UOp_Tensor:$src);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
}

def UOp_PadOp : UOp_MovementOp<"pad"> {
  let summary = "PAD (tensor graph): zero-pad each axis before and after";
  let description = [{
    tinygrad's arg ((before, after), ...) as two lists.

    ```mlir
    %p = uop.pad %x low [0, 1] high [2, 0] : tensor<4x4xf32> -> tensor<6x5xf32>
    ```
  }];
  let arguments = (ins UOp_Tensor:$src, DenseI64ArrayAttr:$low, DenseI64ArrayAttr:$high);
  let assemblyFormat = "$src `low` $low `high` $high attr-dict `:` type($src) `->` type($result)";
}

def UOp_ShrinkOp : UOp_MovementOp<"shrink"> {
  let summary = "SHRINK (tensor graph): keep [begin, end) of each axis";
  let description = [{
    tinygrad's arg ((begin, end), ...) as two lists.

    ```mlir
    %s = uop.shrink %x begin [0, 1] end [4, 3] : tensor<4x4xf32> -> tensor<4x2xf32>
    ```
  }];
  let arguments = (ins UOp_Tensor:$src, DenseI64ArrayAttr:$begin, DenseI64ArrayAttr:$end);
  let assemblyFormat = "$src `begin` $begin `end` $end attr-dict `:` type($src) `->` type($result)";
}

def UOp_FlipOp : UOp_MovementOp<"flip", [AllTypesMatch<["src", "result"]>]> {
  let summary = "FLIP (tensor graph): reverse the axes marked true";
  let description = [{
    ```mlir
    %f = uop.flip %x [true, false] : tensor<4x4xf32>
    ```
  }];
  let arguments = (ins UOp_Tensor:$src, DenseBoolArrayAttr:$axes);
  let assemblyFormat = "$src $axes attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

def UOp_IndexOp : UOp_Op<"index", [Pure, InferTypeOpAdaptor]> {
  let summary = "INDEX: a pointer to element idx of a buffer, optionally gated";
  let description = [{
    tinygrad's INDEX(buf, idx, gate?). With a vector of n offsets the result is
    a vectorized pointer (`vec n`). A false gate makes a LOAD through it yield
    its alt value and a STORE through it do nothing.

    ```mlir
    %p = uop.index %buf[%i] : !uop.ptr<f32, 16>, si32
    %q = uop.index %buf[%i] gate %ok : i1 : !uop.ptr<f32, 16>, si32
    ```
  }];
  let arguments = (ins UOp_AnyPtr:$buf, UOp_ScalarIntLike:$idx, Optional<UOp_BoolLike>:$gate);
  let results = (outs UOp_AnyPtr:$result);
  let assemblyFormat = [{
    $buf `[` $idx `]` (`gate` $gate^ `:` type($gate))? attr-dict `:` type($buf) `,` type($idx)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def UOp_LoadOp : UOp_Op<"load", [MemoryEffects<[MemRead]>, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<UOp_BufferOpInterface>,
    TypesMatchWith<"result is the value type of the pointer", "ptr", "result",
                   "::llvm::cast<::mlir::uop::PtrType>($_self).getValueType()">]> {
  let summary = "LOAD: read through a pointer (a VIEW of a buffer, or an INDEX)";
  let description = [{
    tinygrad's LOAD. Early form: LOAD(VIEW(buf)) with an optional STORE it must
    follow. Lowered form: LOAD(INDEX, alt?) where `alt` is the value when the
    INDEX's gate is false; it may also wait on a BARRIER or sit under an IF.

    ```mlir
    %x = uop.load %view : !uop.ptr<f32, 16>
    %y = uop.load %gated alt %zero : f32 : !uop.ptr<f32, 16>
    %z = uop.load %p after %barrier : !uop.ptr<f32, 16, local>
    ```
  }];
  let arguments = (ins UOp_AnyPtr:$ptr, Optional<UOp_DType>:$alt, Variadic<UOp_Void>:$deps);
  let results = (outs UOp_DType:$result);
  let assemblyFormat = [{
    $ptr (`alt` $alt^ `:` type($alt))? (`after` $deps^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def UOp_StoreOp : UOp_Op<"store", [MemoryEffects<[MemWrite]>, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<UOp_BufferOpInterface>,
    TypesMatchWith<"value is the value type of the pointer", "ptr", "value",
                   "::llvm::cast<::mlir::uop::PtrType>($_self).getValueType()">]> {
  let summary = "STORE: write a value through a pointer";
  let description = [{
    tinygrad's STORE(ptr, value, gate?). The gate is a bool (store only where
    true) or an IF it sits under. The result is the store's effect, which the
    SINK (or a BARRIER, or a LOAD that must follow) consumes.

    ```mlir
    %s = uop.store %view, %x : !uop.ptr<f32, 16>
    %t = uop.store %p, %x gate %ok : i1 : !uop.ptr<f32, 16>
    %u = uop.store %p, %x under %if : !uop.ptr<f32, 16>
    ```
  }];
  let arguments = (ins UOp_AnyPtr:$ptr, UOp_DType:$value, Optional<UOp_BoolLike>:$gate,
                       Optional<UOp_Void>:$under);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = [{
    $ptr `,` $value (`gate` $gate^ `:` type($gate))? (`under` $under^)? attr-dict `:` type($ptr)
  }];
  let hasVerifier = 1;
}

def UOp_AssignOp : UOp_Op<"assign", [MemoryEffects<[MemWrite]>,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "ASSIGN: write a value into an accumulator, buffer or tensor";
  let description = [{
    tinygrad's ASSIGN(target, value, *assigns). In a kernel the target is a
    DEFINE_REG accumulator (same type as the value) or a DEFINE_GLOBAL; in the
    tensor graph it is a tensor of the value's type, optionally after other
    ASSIGNs. The result is the assigned value.

    ```mlir
    %a = uop.assign %acc, %sum : f32, f32
    ```
  }];
  let arguments = (ins UOp_ValueOrPtr:$target, UOp_Value:$value, Variadic<UOp_Value>:$deps);
  let results = (outs UOp_Value:$result);
  let assemblyFormat = [{
    $target `,` $value (`after` $deps^ `:` type($deps))? attr-dict `:` type($target) `,` type($value)
  }];
  let hasVerifier = 1;
}

def UOp_BufferOp : UOp_Op<"buffer", [MemoryEffects<[MemAlloc]>]> {
  let summary = "BUFFER (tensor graph): a flat device buffer";
  let description = [{
    tinygrad's BUFFER(UNIQUE, DEVICE) with arg its size: here the unique id
    and the device are attributes and the size is the 1-D result type's.

    ```mlir
    %b = uop.buffer "CPU" unique 3 : tensor<16xf32>
    ```
  }];
  let arguments = (ins StrAttr:$device, ConfinedAttr<I64Attr, [IntNonNegative]>:$unique);
  let results = (outs UOp_Tensor:$result);
  let assemblyFormat = "$device `unique` $unique attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def UOp_ContiguousOp : UOp_Op<"contiguous", [Pure, SameOperandsAndResultType]> {
  let summary = "CONTIGUOUS (tensor graph): force the value to be realized";
  let description = [{
    ```mlir
    %c = uop.contiguous %x : tensor<4x4xf32>
    ```
  }];
  let arguments = (ins UOp_Tensor:$src);
  let results = (outs UOp_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
}

def UOp_DetachOp : UOp_Op<"detach", [Pure, SameOperandsAndResultType]> {
  let summary = "DETACH (tensor graph): the value, cut off from gradients";
  let description = [{
    For autograd only; kernelize drops it.

    ```mlir
    %d = uop.detach %x : tensor<4x4xf32>
    ```
  }];
  let arguments = (ins UOp_Tensor:$src);
  let results = (outs UOp_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
}

def UOp_ContiguousBackwardOp : UOp_Op<"contiguous_backward", [Pure, SameOperandsAndResultType]> {
  let summary = "CONTIGUOUS_BACKWARD (tensor graph): contiguous only in the backward pass";
  let description = [{
    For autograd only; kernelize drops it.

    ```mlir
    %c = uop.contiguous_backward %x : tensor<4x4xf32>
    ```
  }];
  let arguments = (ins UOp_Tensor:$src);
  let results = (outs UOp_Tensor:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
}

def UOp_CopyOp : UOp_Op<"copy", [Pure, SameOperandsAndResultType]> {
  let summary = "COPY (tensor graph): the value on another device";
  let description = [{
    ```mlir
    %c = uop.copy %x to "CUDA" : tensor<16xf32>
    ```
  }];
  let arguments = (ins UOp_Tensor:$src, StrAttr:$device);
  let results = (outs UOp_Tensor:$result);
  let assemblyFormat = "$src `to` $device attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// ALU
//===----------------------------------------------------------------------===//

class UOp_UnaryOp<string mnemonic, Type type, string tgName, list<Trait> traits = []>
    : UOp_Op<mnemonic, !listconcat(traits, [Pure, SameOperandsAndResultType, UOp_IntRange,
                                            UOp_GroupALU, UOp_GroupUnary])> {
  let summary = tgName # " (elementwise, one source)";
  let description = "tinygrad's " # tgName # ".\n\n```mlir\n%y = uop." # mnemonic #
                    " %x : f32\n```";
  let arguments = (ins type:$src);
  let results = (outs type:$result);
  let assemblyFormat = "$src attr-dict `:` type($result)";
  let hasFolder = 1;
}

def UOp_Exp2Op  : UOp_UnaryOp<"exp2", UOp_FloatLike, "EXP2", [UOp_GroupUnsafePad]>;
def UOp_Log2Op  : UOp_UnaryOp<"log2", UOp_FloatLike, "LOG2", [UOp_GroupUnsafePad]>;
def UOp_SinOp   : UOp_UnaryOp<"sin", UOp_FloatLike, "SIN">;
def UOp_SqrtOp  : UOp_UnaryOp<"sqrt", UOp_FloatLike, "SQRT">;
def UOp_RecipOp : UOp_UnaryOp<"recip", UOp_FloatLike, "RECIP", [UOp_GroupUnsafePad]>;
def UOp_NegOp   : UOp_UnaryOp<"neg", UOp_Value, "NEG">;

class UOp_BinaryOp<string mnemonic, Type type, string tgName, list<Trait> traits = []>
    : UOp_Op<mnemonic, !listconcat(traits, [Pure, SameOperandsAndResultType, UOp_IntRange,
                                            UOp_GroupALU, UOp_GroupBinary])> {
  let summary = tgName # " (elementwise, two sources of one dtype)";
  let description = "tinygrad's " # tgName # ".\n\n```mlir\n%z = uop." # mnemonic #
                    " %x, %y : f32\n```";
  let arguments = (ins type:$lhs, type:$rhs);
  let results = (outs type:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasFolder = 1;
}

def UOp_AddOp  : UOp_BinaryOp<"add", UOp_Value, "ADD",
    [Commutative, UOp_GroupCommutative, UOp_GroupAssociative]>;
def UOp_SubOp  : UOp_BinaryOp<"sub", UOp_Value, "SUB">;
def UOp_MulOp  : UOp_BinaryOp<"mul", UOp_Value, "MUL",
    [Commutative, UOp_GroupCommutative, UOp_GroupAssociative]>;
def UOp_FDivOp : UOp_BinaryOp<"fdiv", UOp_FloatLike, "FDIV">;
// tinygrad's IDIV truncates toward zero, MOD's sign follows the dividend (C semantics).
def UOp_IDivOp : UOp_BinaryOp<"idiv", UOp_IntLike, "IDIV", [UOp_GroupUnsafePad]>;
def UOp_ModOp  : UOp_BinaryOp<"mod", UOp_IntLike, "MOD">;
// Not MLIR's Commutative (tinygrad's group has it): tinygrad's CPU backends
// render MAX as `a < b ? b : a`, so max(nan, 1) is nan but max(1, nan) is 1,
// and reordering would change NaN results.
def UOp_MaxOp  : UOp_BinaryOp<"max", UOp_Value, "MAX",
    [UOp_GroupCommutative, UOp_GroupAssociative, UOp_GroupIdempotent]>;
def UOp_PowOp  : UOp_BinaryOp<"pow", UOp_FloatLike, "POW", [UOp_GroupUnsafePad]>;
def UOp_AndOp  : UOp_BinaryOp<"and", UOp_IntOrBoolLike, "AND",
    [Commutative, UOp_GroupCommutative, UOp_GroupAssociative, UOp_GroupIdempotent]>;
def UOp_OrOp   : UOp_BinaryOp<"or", UOp_IntOrBoolLike, "OR",
    [Commutative, UOp_GroupCommutative, UOp_GroupAssociative, UOp_GroupIdempotent]>;
def UOp_XorOp  : UOp_BinaryOp<"xor", UOp_IntOrBoolLike, "XOR",
    [Commutative, UOp_GroupCommutative]>;

def UOp_ThreefryOp : UOp_Op<"threefry", [Pure, SameOperandsAndResultType, UOp_GroupALU,
                                          UOp_GroupBinary]> {
  let summary = "THREEFRY: tinygrad's random bits (Threefry-2x32 of a counter and a key)";
  let description = [{
    tinygrad's THREEFRY on `ui64`: the counter `x` and the key, each as two
    32-bit halves, through 20 rounds of Threefry-2x32; the two output words
    as one `ui64` (high word from the second). `uop-decompose-math` rewrites
    it into ALU ops as tinygrad's `threefry2x32` (uop/symbolic.py) does, on
    every target.

    ```mlir
    %r = uop.threefry %x, %key : ui64
    ```
  }];
  let arguments = (ins UOp_IntLike:$lhs, UOp_IntLike:$rhs);
  let results = (outs UOp_IntLike:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
  let hasVerifier = 1;
}

class UOp_ShiftOp<string mnemonic, string tgName>
    : UOp_Op<mnemonic, [Pure, UOp_IntRange, UOp_GroupALU, UOp_GroupBinary,
                        AllTypesMatch<["lhs", "result"]>]> {
  let summary = tgName # " (shift; the amount has the value's dtype or is uint)";
  let description = "tinygrad's " # tgName # ". The shift amount has the shifted " #
    "value's type, or is `ui32` (of the same shape).\n\n```mlir\n%z = uop." # mnemonic #
    " %x, %n : si32, ui32\n```";
  let arguments = (ins UOp_IntLike:$lhs, UOp_IntLike:$rhs);
  let results = (outs UOp_IntLike:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def UOp_ShlOp : UOp_ShiftOp<"shl", "SHL">;
def UOp_ShrOp : UOp_ShiftOp<"shr", "SHR">;

class UOp_CmpOp<string mnemonic, string tgName, list<Trait> traits = []>
    : UOp_Op<mnemonic, !listconcat(traits, [Pure, SameTypeOperands, UOp_IntRange,
        UOp_GroupALU, UOp_GroupBinary,
        TypesMatchWith<"result is bool of the operands' shape", "lhs", "result",
                       "::mlir::uop::getBoolLike($_self)">])> {
  let summary = tgName # " (comparison: two sources of one dtype, bool result)";
  let description = "tinygrad's " # tgName # ". The result is bool with the " #
    "operands' shape.\n\n```mlir\n%b = uop." # mnemonic # " %x, %y : f32\n```";
  let arguments = (ins UOp_Value:$lhs, UOp_Value:$rhs);
  let results = (outs UOp_BoolLike:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs)";
  let hasFolder = 1;
}

def UOp_CmpLtOp : UOp_CmpOp<"cmplt", "CMPLT">;
def UOp_CmpNeOp : UOp_CmpOp<"cmpne", "CMPNE", [Commutative, UOp_GroupCommutative]>;
def UOp_CmpEqOp : UOp_CmpOp<"cmpeq", "CMPEQ", [Commutative, UOp_GroupCommutative]>;

def UOp_WhereOp : UOp_Op<"where", [Pure, UOp_IntRange, UOp_GroupALU, UOp_GroupTernary,
    AllTypesMatch<["lhs", "rhs", "result"]>,
    TypesMatchWith<"condition is bool of the result's shape", "result", "cond",
                   "::mlir::uop::getBoolLike($_self)">]> {
  let summary = "WHERE: select lhs where cond is true, else rhs";
  let description = [{
    ```mlir
    %r = uop.where %c, %x, %y : f32
    ```
  }];
  let arguments = (ins UOp_BoolLike:$cond, UOp_Value:$lhs, UOp_Value:$rhs);
  let results = (outs UOp_Value:$result);
  let assemblyFormat = "$cond `,` $lhs `,` $rhs attr-dict `:` type($result)";
  let hasFolder = 1;
}

def UOp_MulAccOp : UOp_Op<"mulacc", [Pure, SameOperandsAndResultType, UOp_GroupALU,
    UOp_GroupTernary]> {
  let summary = "MULACC: a * b + c";
  let description = [{
    ```mlir
    %r = uop.mulacc %a, %b, %c : f32
    ```
  }];
  let arguments = (ins UOp_Value:$a, UOp_Value:$b, UOp_Value:$c);
  let results = (outs UOp_Value:$result);
  let assemblyFormat = "$a `,` $b `,` $c attr-dict `:` type($result)";
}

def UOp_CastOp : UOp_Op<"cast", [Pure, UOp_IntRange]> {
  let summary = "CAST: convert the value to another dtype (or a pointer to another pointer)";
  let description = [{
    tinygrad's CAST, with C conversion semantics (float to int truncates).
    A pointer cast reinterprets what the pointer points at, e.g. a float
    pointer as a float4 pointer for a vector load.

    ```mlir
    %h = uop.cast %x : f32 -> f16
    %p4 = uop.cast %p : !uop.ptr<f32, 16> -> !uop.ptr<vector<4xf32>, 16>
    ```
  }];
  let arguments = (ins UOp_ValueOrPtr:$src);
  let results = (outs UOp_ValueOrPtr:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def UOp_BitcastOp : UOp_Op<"bitcast", [Pure]> {
  let summary = "BITCAST: reinterpret the bits as another dtype of the same size";
  let description = [{
    ```mlir
    %i = uop.bitcast %x : f32 -> ui32
    ```
  }];
  let arguments = (ins UOp_Value:$src);
  let results = (outs UOp_Value:$result);
  let assemblyFormat = "$src attr-dict `:` type($src) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def UOp_ConstOp : UOp_Op<"const", [Pure, ConstantLike, UOp_IntRange, UOp_GroupIrreducible,
    DeclareOpInterfaceMethods<UOp_BufferOpInterface>, AllTypesMatch<["value", "result"]>]> {
  let summary = "CONST: a constant";
  let description = [{
    tinygrad's CONST without a source. The value is a scalar attribute of the
    result type, or a splat `dense<...>` for a vector (tinygrad's CONST of a
    vector dtype broadcasts its scalar arg) or a tensor. It is the dialect's
    constant (ConstantLike): folders see it, and folding materializes it.
    A CONST shaped by a VIEW is `uop.shaped_const`.

    ```mlir
    %c = uop.const 2.000000e+00 : f32
    %i = uop.const -3 : si32
    %b = uop.const true
    %z = uop.const dense<0.000000e+00> : vector<4xf32>
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value);
  let results = (outs UOp_Value:$result);
  let assemblyFormat = "$value attr-dict";
  let hasVerifier = 1;
  let hasFolder = 1;
  let extraClassDeclaration = [{
    /// The scalar (IntegerAttr or FloatAttr): the value itself, or the splat.
    ::mlir::TypedAttr getScalarValue();
  }];
}

def UOp_ShapedConstOp : UOp_Op<"shaped_const", [Pure, UOp_GroupIrreducible,
    DeclareOpInterfaceMethods<UOp_BufferOpInterface>, AllTypesMatch<["value", "result"]>],
    "CONST"> {
  let summary = "CONST(VIEW): a constant over the shape of a source-less VIEW";
  let description = [{
    tinygrad's CONST with a VIEW source, as kernel ASTs have it: the constant
    takes the view's shape; under a masked view it is the constant where the
    mask holds and 0 elsewhere. `uop-lower` turns it into a `uop.const`
    (and a WHERE on the mask). A separate op from `uop.const` because an
    operand would keep `uop.const` from being the dialect's constant.

    ```mlir
    %v = uop.view [#uop.view<shape = [4, 4], strides = [0, 0]>] : !uop.void
    %m = uop.shaped_const %v, 0x7F800000 : f32
    ```
  }];
  let arguments = (ins TypedAttrInterface:$value, UOp_Void:$view);
  let results = (outs UOp_Value:$result);
  let assemblyFormat = "$view `,` $value attr-dict";
  let hasVerifier = 1;
}

def UOp_VConstOp : UOp_Op<"vconst", [Pure, AllTypesMatch<["values", "result"]>]> {
  let summary = "VCONST: a vector constant";
  let description = [{
    ```mlir
    %v = uop.vconst dense<[0, 1, 2, 3]> : vector<4xsi32>
    ```
  }];
  let arguments = (ins TypedAttrInterface:$values);
  let results = (outs UOp_Vector:$result);
  let assemblyFormat = "$values attr-dict";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def UOp_ReduceAxisOp : UOp_Op<"reduce_axis", [Pure,
    InferTypeOpAdaptor]> {
  let summary = "REDUCE_AXIS: reduce the given axes of the shape with ADD, MUL or MAX";
  let description = [{
    tinygrad's REDUCE_AXIS (arg: (op, axes), and True as a third entry: `fuse`,
    kernelize's mark of a reduce fused into its consumer, as with
    FUSE_ARANGE; it changes nothing below kernelize). In a kernel AST the axes index
    the shape flowing in from the VIEWs, and the reduced axes become 1; on a
    tensor the result type has them as 1.

    ```mlir
    %s = uop.reduce_axis add %x [5, 6, 7] : f32
    %t = uop.reduce_axis max %y [1] : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins UOp_ReduceKind:$kind, UOp_Value:$src, DenseI64ArrayAttr:$axes,
                       UnitAttr:$fuse);
  let results = (outs UOp_Value:$result);
  let assemblyFormat = "$kind $src $axes (`fuse` $fuse^)? attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def UOp_ReduceOp : UOp_Op<"reduce", [Pure]> {
  let summary = "REDUCE: reduce a value over the iterations of ranges";
  let description = [{
    tinygrad's REDUCE(value, *ranges) (arg: the op), what REDUCE_AXIS lowers to.
    The accumulator starts at the op's identity and takes the value once per
    iteration of the ranges.

    A vector source with a scalar result is also a horizontal reduction
    (tinygrad's devectorizer, `horizontal_reduce`, of an expanded unroll
    axis): each iteration folds the lanes into the accumulator in order,
    `acc = ((acc op x[0]) op x[1]) op ...`, which is the order of a loop over
    the unroll axis inside the other ranges.

    ```mlir
    %s = uop.reduce add %x [%r5, %r6 : si32, si32] : f32
    %h = uop.reduce add %v [%r5 : si32] : vector<4xf32> -> f32
    ```
  }];
  let arguments = (ins UOp_ReduceKind:$kind, UOp_DType:$src, Variadic<UOp_Int>:$ranges);
  let results = (outs UOp_DType:$result);
  let assemblyFormat = [{
    $kind $src ` ` `[` ($ranges^ `:` type($ranges))? `]` attr-dict `:`
    custom<ReduceTypes>(type($src), type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Vectors
//===----------------------------------------------------------------------===//

def UOp_VectorizeOp : UOp_Op<"vectorize", [Pure]> {
  let summary = "VECTORIZE: build a vector (or vectorized pointer) from scalars";
  let description = [{
    tinygrad's VECTORIZE: two or more sources of one scalar dtype (or one
    scalar pointer type); the result has as many lanes as sources.

    ```mlir
    %v = uop.vectorize %a, %b, %c, %d : f32
    ```
    gives a `vector<4xf32>`.
  }];
  let arguments = (ins Variadic<UOp_DTypeOrPtr>:$srcs);
  let results = (outs UOp_DTypeOrPtr:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
}

def UOp_GepOp : UOp_Op<"gep", [Pure, InferTypeOpAdaptor]> {
  let summary = "GEP: pick lanes of a vector (or vectorized pointer)";
  let description = [{
    tinygrad's GEP (arg: lane indices). One index gives a scalar.

    ```mlir
    %x = uop.gep %v [2] : vector<4xf32>
    %lo = uop.gep %v [0, 1] : vector<4xf32>
    ```
  }];
  let arguments = (ins UOp_DTypeOrPtr:$src, DenseI64ArrayAttr:$indices);
  let results = (outs UOp_DTypeOrPtr:$result);
  let assemblyFormat = "$src $indices attr-dict `:` type($src)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def UOp_CatOp : UOp_Op<"cat", [Pure, InferTypeOpAdaptor]> {
  let summary = "CAT: concatenate vectors of one scalar dtype";
  let description = [{
    ```mlir
    %v = uop.cat %a, %b : vector<2xf32>, vector<2xf32>
    ```
  }];
  let arguments = (ins Variadic<UOp_DType>:$srcs);
  let results = (outs UOp_Vector:$result);
  let assemblyFormat = "$srcs attr-dict `:` type($srcs)";
  let hasVerifier = 1;
}

def UOp_PtrCatOp : UOp_Op<"ptrcat", [Pure, InferTypeOpAdaptor]> {
  let summary = "PTRCAT: concatenate pointers into a vectorized pointer";
  let description = [{
    ```mlir
    %p = uop.ptrcat %a, %b : !uop.ptr<f32, 16>, !uop.ptr<f32, 16>
    ```
  }];
  let arguments = (ins Variadic<UOp_AnyPtr>:$srcs);
  let results = (outs UOp_AnyPtr:$result);
  let assemblyFormat = "$srcs attr-dict `:` type($srcs)";
  let hasVerifier = 1;
}

def UOp_UnrollOp : UOp_Op<"unroll", [Pure, InferTypeOpAdaptor]> {
  let summary = "UNROLL: a vector standing for one lane per combination of the axes";
  let description = [{
    tinygrad's UNROLL (arg: ((axis, size), ...)): the source has prod(size)
    lanes; the result is its scalar, expanded over the axes.

    ```mlir
    %u = uop.unroll %v axes <(2, 4)> : vector<4xf32>
    ```
  }];
  let arguments = (ins UOp_DTypeOrPtr:$src, UOp_AxisSizesAttr:$axes);
  let results = (outs UOp_DTypeOrPtr:$result);
  let assemblyFormat = "$src `axes` $axes attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def UOp_ContractOp : UOp_Op<"contract", [Pure, InferTypeOpAdaptor]> {
  let summary = "CONTRACT: gather the lanes of unrolled axes into a vector";
  let description = [{
    tinygrad's CONTRACT (arg: ((axis, size), ...)): the result has prod(size)
    lanes of the source's scalar.

    ```mlir
    %c = uop.contract %x axes <(3, 2), (4, 2)> : f32
    ```
    gives a `vector<4xf32>`.
  }];
  let arguments = (ins UOp_DTypeOrPtr:$src, UOp_AxisSizesAttr:$axes);
  let results = (outs UOp_DTypeOrPtr:$result);
  let assemblyFormat = "$src `axes` $axes attr-dict `:` type($src)";
  let hasVerifier = 1;
}

def UOp_WmmaOp : UOp_Op<"wmma", [Pure, AllTypesMatch<["c", "result"]>]> {
  let summary = "WMMA: a warp-wide tensor-core D = A * B + C";
  let description = [{
    tinygrad's WMMA. Its arg (name, dims, dtype_in, dtype_out, device,
    threads, upcast_axes, reduce_axes) is stored without the parts the types
    already say: dtype_in is A's and B's element type, dtype_out C's, and the
    name is derived (`WMMA_8_16_16_half_float`). `dims` is (N, M, K) as in
    tinygrad. Each thread holds its share of A, B and C as vectors; the
    verifier checks the shape, dtypes, thread count and per-thread element
    counts against the tensor-core table (NVIDIA: m16n8k16 f16/bf16 inputs,
    m16n8k8 f16 and tf32 inputs), and that the upcast axes multiply out to
    those counts and there are log2(K) reduce axes.

    With `tiles` (not tinygrad's: uop-optimize's WGMMA) it is a warpgroup's
    wgmma m64nNk16 on sm_90a, dims (N, 64, 16), 128 threads: A and B are the
    starts of their tiles in shared memory (VIEWs or INDEXes of
    `define_local`s) laid out as the two `#uop.wgmma_tile`s say, their
    upcast axes empty; C holds the thread's N / 2 accumulators (the
    wgmma's register order), its upcast axes the N blocks of 8 then the
    m16n8 fragment's; `after` names what must happen first (the barrier
    that publishes the tiles). It completes before its result is used
    (lowered to wgmma fence, mma_async, commit and wait 0).

    ```mlir
    %d = uop.wmma %a, %b, %c dims [8, 16, 16] device "CUDA" threads 32
           upcast [#uop.axes<(8, 2), (9, 2), (10, 2)>, #uop.axes<(8, 2), (9, 2)>,
                   #uop.axes<(9, 2), (10, 2)>] reduce [6, 7, 8, 9]
           : vector<8xf16>, vector<4xf16>, vector<4xf32>
    ```
  }];
  let arguments = (ins AnyTypeOf<[UOp_Vector, UOp_AnyPtr]>:$a,
                       AnyTypeOf<[UOp_Vector, UOp_AnyPtr]>:$b, UOp_Vector:$c,
                       DenseI64ArrayAttr:$dims, StrAttr:$device,
                       ConfinedAttr<I64Attr, [IntPositive]>:$threads,
                       TypedArrayAttrBase<UOp_AxisSizesAttr, "upcast axes of A, B and C">:$upcast_axes,
                       DenseI64ArrayAttr:$reduce_axes,
                       OptionalAttr<UOp_WgmmaTileAttr>:$a_tile,
                       OptionalAttr<UOp_WgmmaTileAttr>:$b_tile, Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Vector:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c `dims` $dims `device` $device `threads` $threads
    `upcast` $upcast_axes `reduce` $reduce_axes (`tiles` `[` $a_tile^ `,` $b_tile `]`)?
    (`after` $deps^)? attr-dict
    `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// tinygrad's str(TensorCore): WMMA_<N>_<M>_<K>_<dtype_in>_<dtype_out>.
    std::string getTensorCoreName();
    /// The wgmma form: A and B are tiles in shared memory.
    bool isWgmma() { return getATile().has_value(); }
  }];
}

//===----------------------------------------------------------------------===//
// Staged tensor-core operands (not tinygrad's ops, so plain Ops): tiles
// copied to shared memory asynchronously, fragments read from there
//===----------------------------------------------------------------------===//

def UOp_CopyTileOp : Op<UOp_Dialect, "copy_tile", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "the block copies a tile into shared memory, asynchronously";
  let description = [{
    Every thread of the block executes it; together they copy the `rows` x
    `cols` tile whose row `r` starts `r * src_pitch` elements after `src`
    (a VIEW of a global buffer: the tile's first element) to the rows
    `dst_pitch` elements apart from `dst` (a VIEW of a `define_local`), in
    16-byte pieces (`cp.async.cg`), so a row is a whole number of 16 bytes.
    Where the source view is masked off the thread copies nothing, and a
    piece that would read past the end of the source buffer (a padded
    operand's last tile) is not copied: its bytes in `dst` keep what they
    held. The
    copies join the thread's current group of asynchronous copies
    (`async_commit`); they are complete after the `async_wait` that retires
    it. `uop-lower` distributes the pieces over the threads of the block:
    piece `p` (row-major, 16 bytes each) goes to the thread whose flat local
    index is `p % threads`, so consecutive threads copy consecutive bytes.

    ```mlir
    %c = uop.copy_tile %dst, %src rows 64 cols 32 pitch 1024, 32 after %prev
           : !uop.ptr<f16, 8192, local>, !uop.ptr<f16, 1048576>
    ```
  }];
  let arguments = (ins UOp_AnyPtr:$dst, UOp_AnyPtr:$src,
                       ConfinedAttr<I64Attr, [IntPositive]>:$rows,
                       ConfinedAttr<I64Attr, [IntPositive]>:$cols,
                       ConfinedAttr<I64Attr, [IntPositive]>:$src_pitch,
                       ConfinedAttr<I64Attr, [IntPositive]>:$dst_pitch,
                       Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = [{
    $dst `,` $src `rows` $rows `cols` $cols `pitch` $src_pitch `,` $dst_pitch
    (`after` $deps^)? attr-dict `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
}

def UOp_AsyncCopyOp : Op<UOp_Dialect, "async_copy", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "one thread's asynchronous copy of 4, 8 or 16 bytes to shared memory";
  let description = [{
    PTX's `cp.async.{ca,cg}.shared.global [dst], [src], bytes` (sm_80+):
    `dst` is an INDEX into a `define_local`, `src` an INDEX into a global
    buffer, both aligned to `bytes`. Where `src`'s INDEX is gated off, the
    thread copies nothing. The copy joins the thread's current group
    (`async_commit`) and is complete after the `async_wait` that retires
    it; reading the bytes before then is undefined. `uop-lower` makes these
    from `copy_tile`.

    ```mlir
    %c = uop.async_copy %d, %s bytes 16 after %prev : !uop.ptr<f16, 8192, local>, !uop.ptr<f16, 1048576>
    ```
  }];
  let arguments = (ins UOp_AnyPtr:$dst, UOp_AnyPtr:$src, I64Attr:$bytes, Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = [{
    $dst `,` $src `bytes` $bytes (`after` $deps^)? attr-dict `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
}

def UOp_AsyncCommitOp : Op<UOp_Dialect, "async_commit", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "closes the thread's current group of asynchronous copies";
  let description = [{
    PTX's `cp.async.commit_group`: the copies the thread issued since its
    last commit form one group (possibly empty); `async_wait` counts groups.

    ```mlir
    %g = uop.async_commit after %copyA, %copyB
    ```
  }];
  let arguments = (ins Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = "(`after` $deps^)? attr-dict";
}

def UOp_AsyncWaitOp : Op<UOp_Dialect, "async_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until at most `pending` groups of the thread's copies are in flight";
  let description = [{
    PTX's `cp.async.wait_group pending`: every group but the newest
    `pending` is complete when it returns, for this thread's copies; other
    threads see them after a BARRIER that follows.

    ```mlir
    %w = uop.async_wait 2 after %g
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$pending, Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = "$pending (`after` $deps^)? attr-dict";
}

def UOp_LdMatrixOp : Op<UOp_Dialect, "ldmatrix", [MemoryEffects<[MemRead]>]> {
  let summary = "a warp's collective read of 8x8 matrices of 16-bit elements from shared memory";
  let description = [{
    PTX's `ldmatrix.sync.aligned.m8n8.x{count}[.trans].shared.b16`: the 32
    lanes of a warp read `count` 8x8 matrices; lane `8 * j + r` gives the
    address of row `r` of matrix `j` (`ptr`: a VIEW of a `define_local`, or
    after `uop-lower` an INDEX; 8 consecutive elements, 16 bytes). Lane `l`
    receives, per matrix, the two elements of row `l / 4` at columns
    `2 * (l % 4)` and `2 * (l % 4) + 1`, or with `trans` those of column
    `l / 4` at rows `2 * (l % 4)` and `2 * (l % 4) + 1`: exactly the
    registers of an `mma.sync` fragment, in order. The result has
    `2 * count` elements.

    ```mlir
    %a = uop.ldmatrix %p count 4 after %bar : !uop.ptr<f16, 8192, local> -> vector<8xf16>
    %b = uop.ldmatrix %q count 2 trans after %bar : !uop.ptr<f16, 16384, local> -> vector<4xf16>
    ```
  }];
  let arguments = (ins UOp_AnyPtr:$ptr, ConfinedAttr<I64Attr, [IntPositive]>:$count,
                       UnitAttr:$trans, Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Vector:$result);
  let assemblyFormat = [{
    $ptr `count` $count (`trans` $trans^)? (`after` $deps^)? attr-dict `:` type($ptr) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Hopper's warpgroup matrix multiply (wgmma): its operands in shared memory
//===----------------------------------------------------------------------===//

def UOp_WgmmaFenceOp : Op<UOp_Dialect, "wgmma_fence", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "orders register accesses before the warpgroup's next wgmma";
  let description = [{
    PTX's `wgmma.fence.sync.aligned` (sm_90a): needed before a `wgmma` whose
    accumulator other instructions wrote since the thread's last
    `wgmma_wait` (and before its first). Every thread of the warpgroup
    executes it.

    ```mlir
    %f = uop.wgmma_fence after %barrier
    ```
  }];
  let arguments = (ins Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = "(`after` $deps^)? attr-dict";
}

def UOp_WgmmaOp : Op<UOp_Dialect, "wgmma", [MemoryEffects<[MemRead, MemWrite]>,
                                            AllTypesMatch<["acc", "result"]>]> {
  let summary = "a warpgroup's asynchronous m64nNk16 matrix multiply from shared memory";
  let description = [{
    PTX's `wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}` (sm_90a),
    executed by the 128 threads of a warpgroup (four consecutive warps):
    D = A * B + C (or A * B with `zero_acc`), A 64 x 16 and B 16 x N read
    from shared memory where `a` and `b` (INDEXes into `define_local`s,
    the tiles' starting elements) and their `#uop.wgmma_tile` layouts say.
    `acc` and the result are this thread's N / 2 accumulator registers:
    register `i` of lane `l` of warp `w` of the group holds row
    `16 w + l / 4 + 8 ((i / 2) % 2)`, column `2 (l % 4) + i % 2 + 8 (i / 4)`.
    The multiply is asynchronous: the result may be read only through the
    `wgmma_wait` that retires it (after a `wgmma_commit`), and the tiles
    must not be written before then; it must follow a `wgmma_fence`, and a
    `fence_proxy_async` after the last ordinary writes to the tiles.

    ```mlir
    %d = uop.wgmma %acc, %a [<k, swizzle = 128, lbo = 16, sbo = 1024>],
           %b [<mn, swizzle = 128, lbo = 8192, sbo = 1024>] after %f
           : !uop.ptr<f16, 4096, local>, !uop.ptr<f16, 8192, local> -> vector<64xf32>
    ```
  }];
  let arguments = (ins VectorOfRankAndType<[1], [F32]>:$acc, UOp_AnyPtr:$a, UOp_WgmmaTileAttr:$a_tile,
                       UOp_AnyPtr:$b, UOp_WgmmaTileAttr:$b_tile, UnitAttr:$zero_acc,
                       Variadic<UOp_Void>:$deps);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $acc `,` $a `[` $a_tile `]` `,` $b `[` $b_tile `]` (`zero_acc` $zero_acc^)? (`after` $deps^)? attr-dict
    `:` type($a) `,` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The shape's N: two columns per accumulator register.
    int64_t getN() { return 2 * cast<VectorType>(getType()).getNumElements(); }
  }];
}

def UOp_WgmmaCommitOp : Op<UOp_Dialect, "wgmma_commit", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "closes the thread's current group of wgmma operations";
  let description = [{
    PTX's `wgmma.commit_group.sync.aligned`: the `wgmma`s the thread issued
    since its last commit (the operands name them) form one group, which
    `wgmma_wait` counts.

    ```mlir
    %c = uop.wgmma_commit %d0, %d1 : vector<64xf32>, vector<64xf32>
    ```
  }];
  let arguments = (ins Variadic<VectorOfRankAndType<[1], [F32]>>:$issued);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = "$issued attr-dict `:` type($issued)";
}

def UOp_WgmmaWaitOp : Op<UOp_Dialect, "wgmma_wait", [MemoryEffects<[MemRead, MemWrite]>,
                                                    AllTypesMatch<["value", "result"]>]> {
  let summary = "waits for the thread's wgmma groups; gives a retired accumulator";
  let description = [{
    PTX's `wgmma.wait_group.sync.aligned pending`: every group but the
    newest `pending` is complete when it returns. The result is `value`
    (a `wgmma` result that such a group retires), now readable.

    ```mlir
    %r = uop.wgmma_wait 0, %d after %c : vector<64xf32>
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$pending,
                       VectorOfRankAndType<[1], [F32]>:$value, Variadic<UOp_Void>:$deps);
  let results = (outs VectorOfRankAndType<[1], [F32]>:$result);
  let assemblyFormat = [{
    $pending `,` $value (`after` $deps^)? attr-dict `:` type($value)
  }];
}

def UOp_FenceProxyAsyncOp : Op<UOp_Dialect, "fence_proxy_async", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "makes the thread's shared-memory writes visible to wgmma";
  let description = [{
    PTX's `fence.proxy.async.shared::cta`: `wgmma` reads shared memory
    through the async proxy, so the thread's earlier ordinary writes there
    (stores, landed `async_copy`s) need this fence, and then a BARRIER
    for the other threads, before a `wgmma` reads them.

    ```mlir
    %p = uop.fence_proxy_async after %w
    ```
  }];
  let arguments = (ins Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = "(`after` $deps^)? attr-dict";
}

//===----------------------------------------------------------------------===//
// Hopper's tensor memory accelerator (TMA): tiles copied by one thread,
// completing on mbarriers in shared memory
//===----------------------------------------------------------------------===//

def UOp_MBarrierInitOp : Op<UOp_Dialect, "mbarrier_init", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "initializes an mbarrier in shared memory";
  let description = [{
    PTX's `mbarrier.init.shared.b64 [bar], count` (sm_80+): the mbarrier at
    `bar` (a VIEW of a `define_local` of i64, one mbarrier per element; an
    INDEX after `uop-lower`) starts its phase 0, which completes after
    `count` arrivals and the transaction bytes announced in it. Where the
    VIEW is masked off (the INDEX gated off) the thread does nothing: a
    schedule masks it to one thread. Other threads may use the mbarrier
    after a BARRIER that follows.

    ```mlir
    %i = uop.mbarrier_init %bar count 1 : !uop.ptr<i64, 3, local>
    ```
  }];
  let arguments = (ins UOp_AnyPtr:$bar, ConfinedAttr<I64Attr, [IntPositive]>:$count,
                       Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = "$bar `count` $count (`after` $deps^)? attr-dict `:` type($bar)";
  let hasVerifier = 1;
}

def UOp_MBarrierExpectTxOp : Op<UOp_Dialect, "mbarrier_expect_tx",
                                [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "arrives on an mbarrier, announcing the bytes copies will complete on it";
  let description = [{
    PTX's `mbarrier.arrive.expect_tx.shared.b64 _, [bar], bytes` (sm_90):
    the thread arrives on the mbarrier at `bar` and adds `bytes` to the
    transaction bytes its current phase waits for (`tensor_copy`s complete
    them). Gated as `mbarrier_init` is.

    ```mlir
    %e = uop.mbarrier_expect_tx %bar bytes 16384 after %prev : !uop.ptr<i64, 3, local>
    ```
  }];
  let arguments = (ins UOp_AnyPtr:$bar,
                       ConfinedAttr<I64Attr, [IntPositive, IntMaxValue<1048575>]>:$bytes,
                       Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = "$bar `bytes` $bytes (`after` $deps^)? attr-dict `:` type($bar)";
  let hasVerifier = 1;
}

def UOp_MBarrierWaitOp : Op<UOp_Dialect, "mbarrier_wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "waits until an mbarrier's phase of a parity has completed";
  let description = [{
    PTX's `mbarrier.try_wait.parity.shared.b64` until it succeeds (sm_90):
    the thread waits for the completion of the phase of the mbarrier at
    `bar` whose parity is `phase`'s lowest bit; the bytes copies completed
    on that phase are then visible to it. Before `uop-lower` `phase` is a
    VIEW without a source, whose index is the phase's number (a ring of `S`
    mbarriers used once per step of a loop: step `u` waits for phase
    `u / S` of mbarrier `u % S`); after, that number as an integer. Every
    thread waits: `bar` is not masked.

    ```mlir
    %w = uop.mbarrier_wait %bar, %phase after %copy : !uop.ptr<i64, 3, local>, !uop.void
    ```
  }];
  let arguments = (ins UOp_AnyPtr:$bar, AnyTypeOf<[UOp_Void, UOp_Int]>:$phase,
                       Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = [{
    $bar `,` $phase (`after` $deps^)? attr-dict `:` type($bar) `,` type($phase)
  }];
  let hasVerifier = 1;
}

def UOp_TensorCopyOp : Op<UOp_Dialect, "tensor_copy", [MemoryEffects<[MemRead, MemWrite]>,
                                                      AttrSizedOperandSegments]> {
  let summary = "one thread copies a tile into shared memory with the TMA";
  let description = [{
    PTX's `cp.async.bulk.tensor.2d.shared::cluster.global.tile
    .mbarrier::complete_tx::bytes` (sm_90): copies the `rows` x `cols` tile
    whose row `r` starts `r * pitch` elements after `src` (a VIEW of a
    global buffer: the tile's first element) to `dst` (a VIEW of a
    `define_local`: where the tile starts), its rows packed `cols` apart and
    XOR-swizzled as the `define_local`'s `#uop.swizzle` (which must be TMA's
    32, 64 or 128-byte swizzle with rows of exactly its span, or none). The
    copy goes through a tensor map of the buffer seen as rows of `pitch`
    elements; elements past its last whole row read as zero. When the bytes
    have landed it completes `rows * cols * element bytes` transaction bytes
    on the mbarrier at `bar` (announced there by an `mbarrier_expect_tx`);
    they are visible to the threads whose `mbarrier_wait` saw that phase
    complete. Where `src`'s VIEW is masked off the thread copies nothing:
    a schedule masks it to one thread, which copies the whole tile.

    With `multicast R shl s` (`.multicast::cluster`, in a thread-block
    cluster) the tile lands at the same place in the shared memory of every
    block of the cluster whose `%cluster_ctarank` is a bit of the mask
    `R << s`, completing its bytes on each one's mbarrier at `bar`'s place;
    each of them announces the bytes of every share it receives. Before
    `uop-lower` `s` is a VIEW without a source whose index is the shift;
    after, that number as an integer.

    `uop-lower` makes `dst` and `bar` INDEXes, `src` the INDEX of the
    tile's first element (its gate says which threads copy), `coords` the
    tile's column and row in the tensor map, and sets `map`, the tensor
    map (`#uop.tensor_map`) that `convert-uop-to-gpu` makes a kernel
    parameter of.

    ```mlir
    %c = uop.tensor_copy %dst, %src rows 128 cols 64 pitch 1024, %bar after %e
           : !uop.ptr<f16, 24576, local>, !uop.ptr<f16, 1048576>, !uop.ptr<i64, 3, local>
    %m = uop.tensor_copy %dst, %src rows 32 cols 64 pitch 1024, %bar multicast 15 shl %s : !uop.void
           : !uop.ptr<f16, 24576, local>, !uop.ptr<f16, 1048576>, !uop.ptr<i64, 3, local>
    ```
  }];
  let arguments = (ins UOp_AnyPtr:$dst, UOp_AnyPtr:$src, Variadic<UOp_Int>:$coords,
                       ConfinedAttr<I64Attr, [IntPositive, IntMaxValue<256>]>:$rows,
                       ConfinedAttr<I64Attr, [IntPositive, IntMaxValue<256>]>:$cols,
                       ConfinedAttr<I64Attr, [IntPositive]>:$pitch, UOp_AnyPtr:$bar,
                       Optional<AnyTypeOf<[UOp_Void, UOp_Int]>>:$shift,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive, IntMaxValue<65535>]>>:$receivers,
                       OptionalAttr<UOp_TensorMapAttr>:$map, Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = [{
    $dst `,` $src (`[` $coords^ `]`)? (`map` $map^)? `rows` $rows `cols` $cols `pitch` $pitch
    `,` $bar (`multicast` $receivers^ `shl` $shift `:` type($shift))? (`after` $deps^)? attr-dict
    `:` type($dst) `,` type($src) `,` type($bar) (`,` type($coords)^)?
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Control
//===----------------------------------------------------------------------===//

def UOp_IfOp : UOp_Op<"if", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "IF: what follows (until its ENDIF) runs only where the condition holds";
  let description = [{
    tinygrad's IF(gate, barrier?): the result is the IF itself, which STOREs
    and LOADs name to sit under it and ENDIF closes.

    ```mlir
    %if = uop.if %ok
    %if2 = uop.if %ok after %barrier
    ```
  }];
  let arguments = (ins I1:$cond, Variadic<UOp_Void>:$deps);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = "$cond (`after` $deps^)? attr-dict";
}

def UOp_EndIfOp : UOp_Op<"endif", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "ENDIF: closes an IF";
  let description = [{
    ```mlir
    %e = uop.endif %if
    ```
  }];
  let arguments = (ins UOp_Void:$if_);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = "$if_ attr-dict";
  let hasVerifier = 1;
}

def UOp_EndRangeOp : UOp_Op<"endrange", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "ENDRANGE: closes a RANGE's loop";
  let description = [{
    ```mlir
    %e = uop.endrange %r : si32
    ```
  }];
  let arguments = (ins UOp_Int:$range);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = "$range attr-dict `:` type($range)";
  let hasVerifier = 1;
}

def UOp_BarrierOp : UOp_Op<"barrier", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "BARRIER: all threads of the block wait here (after the given stores)";
  let description = [{
    With `cluster` (ours, not tinygrad's; sm_90) every thread of every block
    of the thread-block cluster waits here: PTX's `barrier.cluster.arrive`
    and `barrier.cluster.wait`, which release the thread's earlier memory
    operations (an `mbarrier_init` among them) to the cluster's threads and
    acquire theirs. A schedule whose blocks copy into each other's shared
    memory (multicast `tensor_copy`) waits so before overwriting a buffer
    its peers may still read.

    ```mlir
    %b = uop.barrier after %store0, %store1
    %b2 = uop.barrier
    %b3 = uop.barrier cluster after %w
    ```
  }];
  let arguments = (ins Variadic<UOp_Void>:$deps, UnitAttr:$cluster);
  let results = (outs UOp_Void:$result);
  let assemblyFormat = "(`cluster` $cluster^)? (`after` $deps^)? attr-dict";
}

def UOp_NoopOp : UOp_Op<"noop", [Pure]> {
  let summary = "NOOP: a placeholder carrying a dtype";
  let description = [{
    ```mlir
    %n = uop.noop %x : (f32) -> f32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$srcs);
  let results = (outs AnyType:$result);
  let assemblyFormat = "$srcs attr-dict `:` functional-type($srcs, $result)";
}

#endif // UOP_OPS_TD

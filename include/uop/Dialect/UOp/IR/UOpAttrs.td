//===- UOpAttrs.td - uop dialect attributes ---------------------------------===//

#ifndef UOP_ATTRS_TD
#define UOP_ATTRS_TD

include "uop/Dialect/UOp/IR/UOpBase.td"

class UOp_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<UOp_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def UOp_SymEntryAttr : UOp_Attr<"SymEntry", "sym_entry"> {
  let summary = "a symbolic entry of a view: an affine expression of variables";
  let description = [{
    One entry of a `#uop.view` (a dimension, stride, the offset or a mask
    bound) that depends on tinygrad `Variable`s: `constant + sum(coefs[i] *
    vars[i])`, the variables named as the kernel's `uop.define_var` ops name
    them. `slot` says which entry: shape `i` is `i`, stride `i` is `rank + i`,
    the offset `2 * rank`, mask bound `j` (0: lo, 1: hi) of dimension `i` is
    `2 * rank + 1 + 2 * i + j`. Views print their entries by name:

    ```
    #uop.view<shape = [1, 10, 8], strides = [0, 8, 1], sym = [shape[1] = n]>
    #uop.sym_entry<1 = n>
    #uop.sym_entry<6 = 8 * start + 4>
    ```
  }];
  let parameters = (ins "int64_t":$slot, "int64_t":$constant,
                        ArrayRefParameter<"int64_t">:$coefs,
                        ArrayRefParameter<"::mlir::StringAttr">:$vars);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The value where the variables take `value(name)`.
    int64_t evaluate(::llvm::function_ref<int64_t(::llvm::StringRef)> value) const;
    /// The smallest and largest values over the variables' ranges
    /// (`range(name)`: [min, max]); std::nullopt when either leaves int64.
    /// Within them, evaluate() cannot overflow at any point of the ranges.
    std::optional<std::pair<int64_t, int64_t>> bounds(
        ::llvm::function_ref<std::pair<int64_t, int64_t>(::llvm::StringRef)> range) const;
    /// `8 * n + 4` (the expression alone).
    void printExpr(::llvm::raw_ostream &os) const;
    /// Parses an expression (`n`, `8 * n + -4`, `2 * a + b`) for `slot`.
    static SymEntryAttr parseExpr(::mlir::AsmParser &parser, int64_t slot);
  }];
}

def UOp_ViewAttr : UOp_Attr<"View", "view"> {
  let summary = "one View of a ShapeTracker: shape, strides, offset, mask";
  let description = [{
    tinygrad's `View`: element `idx` of the view's shape lives at
    `offset + sum(idx[i] * strides[i])` if every `mask[i][0] <= idx[i] < mask[i][1]`,
    and is 0 (invalid) otherwise.

    ```
    #uop.view<shape = [3, 4], strides = [4, 1]>
    #uop.view<shape = [7, 5], strides = [5, 1], offset = -15, mask = [[3, 7], [0, 5]]>
    #uop.view<shape = [1, 10, 8], strides = [0, 8, 1], sym = [shape[1] = n]>
    ```
    `offset` is omitted when 0 and `mask` when absent. Contiguity is derived
    (tinygrad stores it, but it is a function of the other fields).

    Symbolic views (tinygrad's `Variable`s in a shape, a stride, the offset
    or a mask, as in a KV cache) list their symbolic entries in `sym`
    (`#uop.sym_entry`): there the integer is the entry's upper bound over
    the variables' ranges, what every static use of the view (verifiers,
    buffer bounds) sees, and the expression is what the lowered kernel
    computes at run time.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"int64_t">:$strides,
                        "int64_t":$offset,
                        // Flattened [lo0, hi0, lo1, hi1, ...]; empty when unmasked.
                        ArrayRefParameter<"int64_t">:$mask,
                        // Sorted by slot; empty when every entry is an integer.
                        ArrayRefParameter<"::mlir::uop::SymEntryAttr">:$sym);
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape, "::llvm::ArrayRef<int64_t>":$strides,
                     "int64_t":$offset, "::llvm::ArrayRef<int64_t>":$mask), [{
      return $_get($_ctxt, shape, strides, offset, mask, ::llvm::ArrayRef<SymEntryAttr>());
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool hasMask() const { return !getMask().empty(); }
    int64_t getRank() const { return getShape().size(); }
    /// Number of elements of the view's shape.
    int64_t getNumElements() const;
    /// tinygrad's View.contiguous: offset 0, no mask, row-major strides
    /// (stride of a size-1 dimension is 0).
    bool isContiguous() const;
    /// tinygrad's strides_for_shape: row-major strides, 0 for size-1 dims.
    static ::llvm::SmallVector<int64_t> stridesForShape(::llvm::ArrayRef<int64_t> shape);

    bool isSymbolic() const { return !getSym().empty(); }
    /// The slots of #uop.sym_entry for this view's rank.
    int64_t shapeSlot(int64_t i) const { return i; }
    int64_t strideSlot(int64_t i) const { return getRank() + i; }
    int64_t offsetSlot() const { return 2 * getRank(); }
    int64_t maskSlot(int64_t i, int64_t hi) const { return 2 * getRank() + 1 + 2 * i + hi; }
    /// The symbolic entry of `slot`, or null when it is an integer.
    SymEntryAttr getSymAt(int64_t slot) const;
    /// The integer at `slot` (for a symbolic entry, its upper bound).
    int64_t getEntry(int64_t slot) const;
    /// This view where the variables take `value(name)`: no symbolic entry left.
    ViewAttr evaluate(::llvm::function_ref<int64_t(::llvm::StringRef)> value) const;
  }];
}

def UOp_ShapeTrackerAttr : UOp_Attr<"ShapeTracker", "st"> {
  let summary = "tinygrad's ShapeTracker: a stack of views";
  let description = [{
    The last view maps the logical index to a flat index, which is unravelled
    into the previous view's shape, and so on down to the buffer. Validity is
    the AND of every view's mask. The logical shape is the last view's shape.

    ```
    #uop.st<[#uop.view<shape = [4, 4], strides = [1, 4]>]>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"::mlir::uop::ViewAttr">:$views);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The logical shape: the last view's shape.
    ::llvm::ArrayRef<int64_t> getShape() const { return getViews().back().getShape(); }
    int64_t getRank() const { return getShape().size(); }
    /// `[#uop.view<...>, ...]`: the views alone, as the VIEW op writes them.
    static ShapeTrackerAttr parseViews(::mlir::AsmParser &parser);
    void printViews(::mlir::AsmPrinter &printer) const;
    /// A one-view contiguous ShapeTracker of the given shape.
    static ShapeTrackerAttr fromShape(::mlir::MLIRContext *ctx, ::llvm::ArrayRef<int64_t> shape);
  }];
}

def UOp_AxisSizesAttr : UOp_Attr<"AxisSizes", "axes"> {
  let summary = "a list of (axis, size) pairs: the arg of UNROLL, CONTRACT and WMMA upcasts";
  let description = [{
    ```
    #uop.axes<(3, 2), (2, 2)>
    #uop.axes<>
    ```
  }];
  // Flattened [axis0, size0, axis1, size1, ...].
  let parameters = (ins ArrayRefParameter<"int64_t">:$flat);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    size_t size() const { return getFlat().size() / 2; }
    int64_t getAxis(size_t i) const { return getFlat()[2 * i]; }
    int64_t getSize(size_t i) const { return getFlat()[2 * i + 1]; }
    /// Product of the sizes: the vector width the pairs stand for.
    int64_t getProduct() const;
  }];
}

def UOp_TensorCoreAttr : UOp_Attr<"TensorCore", "tensor_core"> {
  let summary = "one tensor-core shape and dtype pair a target has";
  let description = [{
    An MMA instruction the target executes: `mma.sync.aligned.m{m}n{n}k{k}`
    with A/B elements of `dtype_in` and C/D elements of `dtype_out` (f32
    inputs are tf32). Only shapes in tinygrad's NVIDIA table are accepted.

    ```
    #uop.tensor_core<m = 16, n = 8, k = 16, dtype_in = f16, dtype_out = f32>
    ```
  }];
  let parameters = (ins "int64_t":$m, "int64_t":$n, "int64_t":$k,
                        "::mlir::Type":$dtype_in, "::mlir::Type":$dtype_out);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def UOp_TargetAttr : UOp_Attr<"Target", "target"> {
  let summary = "what the target has: tinygrad's Renderer (PTX, or the host's C)";
  let description = [{
    The target a kernel is compiled for, with what tinygrad's Renderer
    carries: the architecture (`chip`: an `sm_XX` name, or `host` for the
    CPU), the launch limits (`global_max`: grid size per dimension,
    `local_max`: block size per dimension, `shared_max`: bytes of shared
    memory per block; empty and 0 on the host), the tensor cores, and which
    ops it has natively:
    - `half_ops`: the ALU ops with a native f16 instruction (the others are
      computed in f32 and cast back);
    - `approx_ops`: the ones computed with PTX's approximate instructions
      (`ex2.approx`, `lg2.approx`, `sin.approx`, `sqrt.approx`,
      `rcp.approx`), which exist for f16/f32 only;
    - `native_ops`: which of EXP2, LOG2, SIN, SQRT and MULACC the target has
      an instruction for (tinygrad's `code_for_op`). `uop-decompose-math`
      rewrites the transcendentals it lacks with tinygrad's polynomials
      (uop/transcendental.py), and an approximate op on f64 too; SQRT on f64
      stays (`sqrt.rn.f64`). With `mulacc`, `uop-fuse-mulacc` makes every
      float `a * b + c` a MULACC (`fma.rn`), as tinygrad's PTX does; on the
      host it fuses where C's `-ffp-contract=on` does (see
      docs/semantics.md).

    Every field but the chip defaults to the chip's values, and is printed
    only where it differs from them:

    ```
    #uop.target<"sm_80">
    #uop.target<"sm_90a", local_max = [256, 256, 64]>
    #uop.target<"host">
    ```

    `uop-attach-target` puts one on a module as `uop.target`; the passes
    read it from there. Known chips: host, sm_75, sm_80, sm_86, sm_87, sm_89,
    sm_90, sm_90a, sm_100, sm_110 (CUDA 12's sm_101) and sm_120. The host target is tinygrad's ClangRenderer: SQRT native,
    EXP2/LOG2/SIN decomposed, no launch dims, shared memory or tensor cores.
  }];
  let parameters = (ins StringRefParameter<"sm_XX name">:$chip,
                        ArrayRefParameter<"int64_t">:$globalMax,
                        ArrayRefParameter<"int64_t">:$localMax,
                        "int64_t":$sharedMax,
                        ArrayRefParameter<"::mlir::uop::TensorCoreAttr">:$tensorCores,
                        ArrayRefParameter<"::mlir::StringAttr">:$halfOps,
                        ArrayRefParameter<"::mlir::StringAttr">:$approxOps,
                        ArrayRefParameter<"::mlir::StringAttr">:$nativeOps);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The GPU chip's defaults, or null for an unknown chip (or the host).
    static TargetAttr getForChip(::mlir::MLIRContext *ctx, ::llvm::StringRef chip);
    /// The host's target: tinygrad's ClangRenderer.
    static TargetAttr getHost(::mlir::MLIRContext *ctx);
    /// getHost for "host", else getForChip.
    static TargetAttr getDefaults(::mlir::MLIRContext *ctx, ::llvm::StringRef chip);
    /// The chips the PTX path knows, oldest first: sm_75 ... sm_90a.
    static ::llvm::ArrayRef<::llvm::StringLiteral> getKnownChips();
    /// The NVPTX features (PTX ISA version) the chip needs: "+ptx80" ...
    static ::llvm::StringRef getPTXFeatures(::llvm::StringRef chip);
    /// The chip's SM version, 90 for "sm_90a"; 0 for the host or a name
    /// that is not "sm_<digits>[a]".
    static int64_t getSMVersion(::llvm::StringRef chip);
    /// The chip name of the host target (tinygrad's ClangRenderer).
    static constexpr ::llvm::StringLiteral kHostChip = "host";
    bool isHost() const { return getChip() == kHostChip; }
    /// The chip the tools and pipelines compile for when none is given.
    static constexpr ::llvm::StringLiteral kDefaultChip = "sm_80";
    /// The error for a chip getForChip does not know, listing those it does:
    /// "unknown GPU arch 'sm_42' (known: sm_75, sm_80, ...)".
    static std::string unknownChipMessage(::llvm::StringRef chip);
    /// The target of the module around `op`, or null (with an error on `op`
    /// when `emitErrors`) if it has none.
    static TargetAttr lookup(::mlir::Operation *op, bool emitErrors = true);
    /// lookup, and an error on `op` if the target is the host's.
    static TargetAttr lookupGPU(::mlir::Operation *op);
    bool isHalfOp(::llvm::StringRef op) const;
    /// Whether the target computes `op` (a mnemonic: exp2, log2, sin, sqrt,
    /// mulacc) on `dtype` with an instruction (see native_ops).
    bool hasNativeOp(::llvm::StringRef op, ::mlir::Type dtype) const;
    /// Whether `product` (a float MUL's result) is computed as one rounding
    /// with the ADD that uses it: always where the target has MULACC; on the
    /// host where clang contracts tinygrad's C (a product with no other use,
    /// and not a negation).
    bool fusesProduct(::mlir::Value product) const;
  }];
}

def UOp_SwizzleAttr : UOp_Attr<"Swizzle", "swizzle"> {
  let summary = "an XOR swizzle of shared-memory byte offsets (CUTLASS's Swizzle<B, M, S>)";
  let description = [{
    The layout of a shared-memory buffer whose tiles are read by whole 16-byte
    rows (`ldmatrix`, `wgmma`) and written by 16-byte copies (`cp.async`):
    byte offset `a` of the buffer is stored at
    `a ^ (((a >> (base + shift)) & (2^bits - 1)) << base)`, i.e. the `bits`
    bits above `base + shift` are XORed into the `bits` bits above `base`.
    With `base = 4` this permutes 16-byte chunks and never splits one, so
    eight rows of a tile read at the same column fall into eight different
    bank groups. The swizzle repeats every `2^(base + shift + bits)` bytes
    (its period); a buffer that has one is a whole number of periods, and
    is aligned to one, so that its offsets and the shared addresses swizzle
    alike (Hopper's wgmma applies the 32, 64 and 128-byte swizzles,
    `<1, 4, 3>`, `<2, 4, 3>` and `<3, 4, 3>`, to addresses).

    ```
    #uop.swizzle<3, 4, 3>    // 128-byte rows: row r's chunks XORed with r % 8
    ```
  }];
  let parameters = (ins AttrParameter<"int64_t", "how many bits are XORed (1 to 3)">:$bits,
                        AttrParameter<"int64_t", "the lowest bit XORed into (4: 16-byte chunks)">:$base,
                        AttrParameter<"int64_t", "how far above them the bits XORed in are">:$shift);
  let assemblyFormat = "`<` $bits `,` $base `,` $shift `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Where byte offset `offset` is stored.
    int64_t apply(int64_t offset) const;
    /// Bytes after which the pattern repeats: 2^(base + shift + bits).
    int64_t getPeriod() const { return int64_t(1) << (getBase() + getShift() + getBits()); }
  }];
}

// `k` or `mn`, written as a bare keyword.
def UOp_WgmmaMajorParameter : StringRefParameter<"`k` or `mn`: the contiguous index"> {
  let parser = [{ [&]() -> ::mlir::FailureOr<std::string> {
    std::string s;
    if ($_parser.parseKeywordOrString(&s))
      return ::mlir::failure();
    return s;
  }() }];
  let printer = [{ $_printer << $_self }];
}

def UOp_WgmmaTileAttr : UOp_Attr<"WgmmaTile", "wgmma_tile"> {
  let summary = "how a wgmma operand lies in shared memory: its matrix descriptor's fields";
  let description = [{
    The layout of one operand tile of `uop.wgmma` (A: 64 x 16, B: 16 x N),
    as PTX's wgmma matrix descriptor gives it ("Matrix Descriptor Format",
    PTX ISA 9.7.15.5.1): `major` is `k` (the K index is contiguous: PTX's
    non-transposed operand) or `mn` (M or N contiguous: transposed);
    `swizzle` the bytes of the swizzle pattern's rows (0 for none, 32, 64 or
    128); `lbo` and `sbo` the leading and stride byte offsets, multiples of
    16 below 2^18. With swizzle and `major = k`, `lbo` is unused (PTX: assumed
    1). docs/simulator.md gives each layout's element addresses.

    ```
    #uop.wgmma_tile<k, swizzle = 128, lbo = 16, sbo = 1024>
    #uop.wgmma_tile<mn, swizzle = 0, lbo = 128, sbo = 256>
    ```
  }];
  let parameters = (ins UOp_WgmmaMajorParameter:$major,
                        AttrParameter<"int64_t", "swizzle pattern bytes: 0, 32, 64 or 128">:$swizzle,
                        AttrParameter<"int64_t", "leading dimension byte offset">:$lbo,
                        AttrParameter<"int64_t", "stride dimension byte offset">:$sbo);
  let assemblyFormat = "`<` $major `,` `swizzle` `=` $swizzle `,` `lbo` `=` $lbo `,` `sbo` `=` $sbo `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    bool isMNMajor() const { return getMajor() == "mn"; }
    /// The descriptor's bits 16-63 (all but the start address): LBO, SBO,
    /// base offset 0 and the swizzle mode.
    uint64_t descriptorHighBits() const;
  }];
}

// A list of integers written in brackets, `[40, 20]` or `[]`.
class UOp_IntListParameterOf<string desc> : ArrayRefParameter<"int64_t", desc> {
  let parser = [{ [&]() -> ::mlir::FailureOr<::llvm::SmallVector<int64_t>> {
    ::llvm::SmallVector<int64_t> v;
    if ($_parser.parseCommaSeparatedList(::mlir::AsmParser::Delimiter::Square,
            [&] { return $_parser.parseInteger(v.emplace_back()); }))
      return ::mlir::failure();
    return v;
  }() }];
  let printer = [{ $_printer << '['; ::llvm::interleaveComma($_self, $_printer); $_printer << ']' }];
}
def UOp_IntListParameter : UOp_IntListParameterOf<"a bracketed list of integers">;

def UOp_TensorMapAttr : UOp_Attr<"TensorMap", "tensor_map"> {
  let summary = "a TMA tensor map a kernel takes: a tiled view of one of its buffers";
  let description = [{
    What the CUDA driver's `cuTensorMapEncodeTiled` encodes and
    `cp.async.bulk.tensor` reads: buffer `buffer` of the kernel seen as a
    tensor of `element`s with `sizes` (innermost, contiguous dimension
    first, as CUDA orders them), whose dimension `i + 1` steps
    `strides[i]` bytes, copied in boxes of `box` elements that land in
    shared memory packed, innermost dimension first, and XOR-swizzled
    with `swizzle` bytes' pattern (0 for none, 32, 64 or 128: CUTLASS's
    `Swizzle<1, 4, 3>`, `<2, 4, 3>`, `<3, 4, 3>` of the shared address, as
    `#uop.swizzle` says). Elements of a box outside the tensor are filled
    with zeros.

    A kernel's `uop.launch` entry lists its maps in `tensor_maps`; the
    kernel takes a pointer to each, in order, after its variables, and
    the runtime makes them from the buffers at every launch (the
    simulator in a form of its own, CUDA with `cuTensorMapEncodeTiled` in
    device memory).

    ```
    #uop.tensor_map<buffer = 1, element = f16, sizes = [1024, 1024], strides = [2048], box = [64, 64], swizzle = 128>
    ```

    The verifier checks `cuTensorMapEncodeTiled`'s limits: 1 to 5
    dimensions of 1 to 2^32 elements; strides multiples of 16 below 2^40;
    box sizes 1 to 256, the innermost a multiple of 16 bytes; elements of
    1, 2, 4 or 8 bytes. One limit is ours: with a swizzle, the box's
    innermost dimension is exactly the swizzle's span (CUDA also takes
    narrower rows, but documents no layout for them).
  }];
  let parameters = (ins "int64_t":$buffer, "::mlir::Type":$element,
                        UOp_IntListParameter:$sizes, UOp_IntListParameter:$strides,
                        UOp_IntListParameter:$box, "int64_t":$swizzle);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getSizes().size(); }
    int64_t getElementBytes() const;
    /// The bytes one box fills (and its copy's mbarrier transaction).
    int64_t getBoxBytes() const;
    /// One past the last byte of the buffer the tensor covers.
    int64_t getExtentBytes() const;
  }];
}

def UOp_OptionalIntListParameter
    : UOp_IntListParameterOf<"a bracketed list of integers, or nothing (empty)"> {
  let defaultValue = "::llvm::SmallVector<int64_t>()";
  let comparator = "::llvm::ArrayRef<int64_t>($_lhs) == ::llvm::ArrayRef<int64_t>($_rhs)";
}

def UOp_KernelInfoAttr : UOp_Attr<"KernelInfo", "kernel_info"> {
  let summary = "what the optimizer decided for a kernel: tinygrad's KernelInfo";
  let description = [{
    `uop-optimize` sets it on a kernel as `uop.kernel_info`; `uop-lower`
    reads it to give each axis of the (reshaped, permuted) shape its role.
    The shape is `<global dims> <local dims> <reduces> <upcasts>`:
    - `global_dims`: the first axes, grid indices on a GPU (loops on the CPU);
    - `local_dims`: the next axes, thread indices; this count includes the
      grouped reduce axes (GROUP/GROUPTOP), which follow the other locals;
    - `upcasted`: the last axes, unrolled into each thread's registers
      (UPCAST when not reduced, UNROLL when reduced);
    - `dont_use_locals`: NOLOCALS, the globals index threads directly;
    - `opts`: the opts applied, in tinygrad's notation;
    - `cluster` (optional): blocks per thread-block cluster along each
      global axis (CLUSTER, ours; sm_90), one size per global axis.

    ```
    #uop.kernel_info<global_dims = 1, local_dims = 1, upcasted = 1, dont_use_locals = false, opts = "LOCAL:0:16,UPCAST:0:4">
    #uop.kernel_info<global_dims = 2, local_dims = 1, upcasted = 3, dont_use_locals = false, opts = "...", cluster = [2, 4]>
    ```
  }];
  let parameters = (ins "int64_t":$global_dims, "int64_t":$local_dims, "int64_t":$upcasted,
                        "bool":$dont_use_locals, StringRefParameter<"applied opts">:$opts,
                        UOp_OptionalIntListParameter:$cluster);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // UOP_ATTRS_TD

//===- UOpAttrs.td - uop dialect attributes ---------------------------------===//

#ifndef UOP_ATTRS_TD
#define UOP_ATTRS_TD

include "uop/Dialect/UOp/IR/UOpBase.td"

class UOp_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<UOp_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
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
    ```
    `offset` is omitted when 0 and `mask` when absent. Contiguity is derived
    (tinygrad stores it, but it is a function of the other fields).
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        ArrayRefParameter<"int64_t">:$strides,
                        "int64_t":$offset,
                        // Flattened [lo0, hi0, lo1, hi1, ...]; empty when unmasked.
                        ArrayRefParameter<"int64_t">:$mask);
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

#endif // UOP_ATTRS_TD

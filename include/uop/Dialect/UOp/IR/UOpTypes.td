//===- UOpTypes.td - uop dialect types -------------------------------------===//

#ifndef UOP_TYPES_TD
#define UOP_TYPES_TD

include "uop/Dialect/UOp/IR/UOpBase.td"

class UOp_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<UOp_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def UOp_VoidType : UOp_Type<"Void", "void"> {
  let summary = "tinygrad's dtypes.void";
  let description = [{
    The type of UOps that produce no value: STORE, BARRIER, IF, ENDIF, ENDRANGE,
    and a VIEW without a source (which only gives a CONST or VALID its shape).
    Keeping these as SSA values lets a kernel mirror tinygrad's DAG one to one
    (SINK's sources are STOREs, a LOAD may wait on a BARRIER).
  }];
}

def UOp_PtrType : UOp_Type<"Ptr", "ptr"> {
  let summary = "tinygrad's PtrDType: a pointer with element type, size and address space";
  let description = [{
    `!uop.ptr<f32, 400>` is tinygrad's `dtypes.float.ptr(400)`; the address space
    defaults to `global`. `!uop.ptr<f32, 16, local>` points into shared memory,
    `!uop.ptr<f32, 1, reg>` into registers. `?` is an unknown size (tinygrad's
    -1). A vectorized pointer (`ptr.vec(n)`, the result of PTRCAT or an INDEX
    with a vector of offsets) adds `vec n`: `!uop.ptr<f32, 400, global, vec 4>`.
    The element may itself be a vector (`float4.ptr()`, a pointer cast for a
    vector load).
  }];
  let parameters = (ins "::mlir::Type":$elementType, "int64_t":$size,
                        "::mlir::uop::AddressSpace":$addressSpace,
                        DefaultValuedParameter<"int64_t", "1">:$vcount);
  let builders = [
    TypeBuilderWithInferredContext<(ins "::mlir::Type":$elementType, "int64_t":$size,
        CArg<"::mlir::uop::AddressSpace", "::mlir::uop::AddressSpace::global">:$addressSpace,
        CArg<"int64_t", "1">:$vcount), [{
      return $_get(elementType.getContext(), elementType, size, addressSpace, vcount);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    static constexpr int64_t kUnknownSize = -1;
    /// The type a LOAD through this pointer yields (and a STORE takes):
    /// the element, vectorized by vcount.
    ::mlir::Type getValueType() const;
    /// This pointer with vcount 1.
    PtrType getScalarPtr() const;
    /// This pointer with the given vcount.
    PtrType withVCount(int64_t v) const;
  }];
}

#endif // UOP_TYPES_TD

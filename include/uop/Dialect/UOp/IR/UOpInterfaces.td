//===- UOpInterfaces.td - tinygrad's op names and op groups ----------------===//
//
// What tinygrad says about its ops beyond each op itself: the name of each
// (its `Ops` member, which the JSON import/export and diagnostics use), the
// groups of uop/__init__.py's GroupOp, and the buffer ops' st_arg. Every
// rule or pass that asks "is this an ALU op" asks these, never a list of
// names.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_INTERFACES_TD
#define UOP_INTERFACES_TD

include "mlir/IR/OpBase.td"

def UOp_TinygradOpInterface : OpInterface<"TinygradOpInterface"> {
  let cppNamespace = "::mlir::uop";
  let description = [{
    An op that is one tinygrad UOp. Every op of the dialect but `uop.kernel`
    (a container for one kernel AST) has it; the name comes from the op's
    definition (by default its mnemonic in capitals).
  }];
  let methods = [
    StaticInterfaceMethod<"tinygrad's name of the op: its member of `Ops`",
                          "::llvm::StringRef", "getTinygradName">
  ];
}

def UOp_BufferOpInterface : OpInterface<"BufferOpInterface"> {
  let cppNamespace = "::mlir::uop";
  let description = [{
    tinygrad's GroupOp.Buffer (LOAD, STORE, VALID, CONST, DEFINE_VAR): an op
    whose shape in a kernel AST is that of its VIEW source (tinygrad's
    st_arg), which the optimizer reshapes with the kernel.
  }];
  let methods = [
    InterfaceMethod<"The result of the VIEW the op takes its shape from, or null (a "
                    "lowered op, or one without a view)",
                    "::mlir::Value", "getViewValue", (ins), [{}], [{
      return ::mlir::uop::detail::findViewOperand($_op);
    }]>
  ];
  let extraClassDeclaration = [{
    /// getViewValue's VIEW, or null.
    ::mlir::uop::ViewOp getView();
  }];
}

// tinygrad's GroupOp, one trait per group (C++: mlir::uop::GroupOp::<Name>,
// so `op->hasTrait<GroupOp::ALU>()` reads as tinygrad's `op in GroupOp.ALU`).
// ALU is Unary, Binary and Ternary together. Commutative is tinygrad's group,
// which has MAX; MLIR's own Commutative trait (which lets the canonicalizer
// reorder operands) stays off MAX, whose NaN result depends on the order.
class UOp_Group<string name> : NativeOpTrait<name> {
  let cppNamespace = "::mlir::uop::GroupOp";
}
def UOp_GroupALU : UOp_Group<"ALU">;
def UOp_GroupUnary : UOp_Group<"Unary">;
def UOp_GroupBinary : UOp_Group<"Binary">;
def UOp_GroupTernary : UOp_Group<"Ternary">;
def UOp_GroupCommutative : UOp_Group<"Commutative">;
def UOp_GroupAssociative : UOp_Group<"Associative">;
def UOp_GroupIdempotent : UOp_Group<"Idempotent">;
def UOp_GroupUnsafePad : UOp_Group<"UnsafePad">;
def UOp_GroupIrreducible : UOp_Group<"Irreducible">;
def UOp_GroupMovement : UOp_Group<"Movement">;

#endif // UOP_INTERFACES_TD

//===- UOpTraits.h - tinygrad's GroupOp as op traits ------------*- C++ -*-===//
//
// The traits UOpInterfaces.td declares, one per group of tinygrad's GroupOp
// (uop/__init__.py): `op->hasTrait<GroupOp::ALU>()` is tinygrad's
// `op in GroupOp.ALU`. They carry no methods: membership is the fact.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_DIALECT_UOP_IR_UOPTRAITS_H
#define UOP_DIALECT_UOP_IR_UOPTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::uop::GroupOp {

#define UOP_GROUP_TRAIT(Name)                                                                      \
  template <typename ConcreteType>                                                                 \
  class Name : public ::mlir::OpTrait::TraitBase<ConcreteType, Name> {};
UOP_GROUP_TRAIT(ALU)
UOP_GROUP_TRAIT(Unary)
UOP_GROUP_TRAIT(Binary)
UOP_GROUP_TRAIT(Ternary)
UOP_GROUP_TRAIT(Commutative)
UOP_GROUP_TRAIT(Associative)
UOP_GROUP_TRAIT(Idempotent)
UOP_GROUP_TRAIT(UnsafePad)
UOP_GROUP_TRAIT(Irreducible)
UOP_GROUP_TRAIT(Movement)
#undef UOP_GROUP_TRAIT

} // namespace mlir::uop::GroupOp

#endif

//===- Sites.h - naming the ops a run-time check reports --------*- C++ -*-===//
//
// Passes that add run-time checks (convert-nvvm-to-sim, uop-check-host-
// accesses) number the checked ops; the `uop.sites` string array on the
// symbol table that holds the functions names site i, so a runtime error can
// say which op failed and where it came from.
//
//===----------------------------------------------------------------------===//
#ifndef UOP_CONVERSION_COMMON_SITES_H
#define UOP_CONVERSION_COMMON_SITES_H

#include "uop/Conversion/NVVMToSim/SimABI.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir::uop {

/// The sites a pass numbers, in order.
class SiteTable {
public:
  /// "llvm.load at file:line:col": the op's name (an intrinsic call's
  /// intrinsic) and the first file location it carries (else its whole
  /// location). Returns the site's number.
  int64_t add(Operation *op) {
    std::string s;
    llvm::raw_string_ostream os(s);
    auto intrinsic = op->getAttrOfType<StringAttr>("intrin");
    auto callee = op->getAttrOfType<FlatSymbolRefAttr>("callee");
    if (op->getName().getStringRef() == "llvm.call_intrinsic" && intrinsic)
      os << intrinsic.getValue() << " at ";
    else if (op->getName().getStringRef() == "llvm.call" && callee &&
             !sim::instructionOf(callee.getValue()).empty())
      // The simulator's stand-ins for the ops LLVM has no intrinsic for.
      os << sim::instructionOf(callee.getValue()) << " at ";
    else
      os << op->getName() << " at ";
    if (auto file = op->getLoc()->findInstanceOf<FileLineColLoc>())
      os << file.getFilename().getValue() << ":" << file.getLine() << ":" << file.getColumn();
    else
      op->getLoc().print(os);
    sites.push_back(s);
    return static_cast<int64_t>(sites.size() - 1);
  }

  /// The table as the `uop.sites` attribute's value.
  ArrayAttr toAttr(Builder &b) const {
    SmallVector<Attribute> attrs;
    for (const std::string &s : sites)
      attrs.push_back(b.getStringAttr(s));
    return b.getArrayAttr(attrs);
  }

private:
  std::vector<std::string> sites;
};

} // namespace mlir::uop

#endif

//===- Diagnostics.cpp - printing diagnostics located in kernel JSON ------===//

#include "uop/Target/Tinygrad/TinygradJSON.h"

#include "mlir/IR/Diagnostics.h"

using namespace mlir;

void mlir::uop::printLocatedDiagnostic(Diagnostic &d, llvm::raw_ostream &os) {
  if (auto fl = d.getLocation()->findInstanceOf<FileLineColLoc>())
    os << fl.getFilename().getValue() << ":" << fl.getLine() << ":" << fl.getColumn() << ": ";
  switch (d.getSeverity()) {
  case DiagnosticSeverity::Error:
    os << "error: ";
    break;
  case DiagnosticSeverity::Warning:
    os << "warning: ";
    break;
  case DiagnosticSeverity::Note:
    os << "note: ";
    break;
  case DiagnosticSeverity::Remark:
    os << "remark: ";
    break;
  }
  // Ops imported from JSON are located at "node N"; say which node, unless
  // the importer's own message already does.
  std::string msg = d.str();
  if (auto name = d.getLocation()->findInstanceOf<NameLoc>())
    if (!StringRef(msg).starts_with(name.getName().getValue()))
      os << name.getName().getValue() << ": ";
  os << msg << "\n";
  for (Diagnostic &note : d.getNotes())
    printLocatedDiagnostic(note, os);
}

//===- KernelPrinter.h - the PTX printer's state, shared by its parts -----===//
//
// Private to lib/Target/PTX: the PTX printer (PTXPrinter.h) is one class
// whose templates are split by kind over PTXPrinter.cpp (registers,
// pointers, control flow, the op table, the kernel), PTXArithmetic.cpp,
// PTXMemory.cpp and PTXIntrinsics.cpp (calls, inline asm, mma.sync).
//
// Registers hold bits only (.pred, .b16, .b32, .b64, as LLVM 22's NVPTX
// declares them); the instruction says how to read them. Conventions that
// keep the templates short:
//   - i8 lives in a .b16 register whose upper byte is unspecified; the ops
//     that read it (compare, divide, shift right, widen) extend it first.
//   - f16/bf16 live in .b16 registers; bf16 arithmetic and comparisons go
//     through f32, as LLVM does below sm_90 (f32 has the 2p+2 bits that
//     make rounding twice harmless for + - * /; int-to-bf16 rounds twice,
//     as on the LLVM path).
//   - A pointer is a register plus a constant byte offset, in the state
//     space it is known to be in: a kernel's pointer arguments are global
//     (cvta.to.global once), shared globals are shared. Loads and stores
//     use the space and fold the offset into the address; a generic
//     address is made only where the IR asks for one.
//   - Block arguments have their own registers; a branch copies into them
//     as a parallel copy, on its own edge where a conditional branch has
//     arguments for both successors.
// Float add/sub/mul carry .rn so ptxas cannot contract them into fma: the
// IR's fma ops are the only fused ones, as on the LLVM path.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_LIB_TARGET_PTX_KERNELPRINTER_H
#define UOP_LIB_TARGET_PTX_KERNELPRINTER_H

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::uop::ptx {

enum class RC : uint8_t { Pred, B16, B32, B64 };
// Cluster: shared::cluster, any block's shared memory in the cluster (mapa's).
enum class Space : uint8_t { Generic, Global, Shared, Cluster };

struct Reg {
  RC rc = RC::B32;
  unsigned n = 0;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, Reg r) {
  static const char *prefix[] = {"%p", "%rs", "%r", "%rd"};
  return os << prefix[static_cast<int>(r.rc)] << r.n;
}

/// A pointer: `reg + off` bytes, an address in `space`; `param` is the
/// kernel argument it points into, or -1.
struct Ptr {
  Reg reg;
  int64_t off = 0;
  Space space = Space::Generic;
  int param = -1;
};

/// A getelementptr as the printer writes it: its constant terms (constant
/// indices, and the constants added to a dynamic index where that cannot
/// wrap) summed into `offset` bytes, and each dynamic index left, scaled by
/// its stride in bytes.
struct GEPPlan {
  int64_t offset = 0;
  SmallVector<std::pair<Value, int64_t>, 2> scaled;
};

/// An instruction operand: a register or literal text.
struct Opnd {
  Opnd(Reg r) : reg(r), isReg(true) {}
  Opnd(StringRef s) : text(s) {}
  Opnd(const char *s) : text(s) {}
  Opnd(const std::string &s) : text(s) {}
  Reg reg;
  StringRef text;
  bool isReg = false;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, const Opnd &o) {
  return o.isReg ? os << o.reg : os << o.text;
}

unsigned bitsOf(Type t);
RC rcOf(Type t);
extern const char *const kMov[4];
/// The scalar types a value's lanes have: a vector's elements, a struct's
/// fields (scalars only), or the value itself.
LogicalResult laneTypes(Type t, SmallVectorImpl<Type> &out);
/// The lanes [first, first + count) of an aggregate that the field at
/// `position` (extractvalue's indices) occupies.
FailureOr<std::pair<size_t, size_t>> fieldLanes(Type t, ArrayRef<int64_t> position);
/// The space a pointer of type `t` holds an address of, as bits: generic
/// for address space 0 (whatever the pointer is known to point into).
Space typeSpace(Type t);
Type elementOf(Type t);
/// "s32", "u16", "b64", "f32": a PTX type suffix.
std::string sfx(char kind, unsigned bits);
/// A float immediate: 0fXXXXXXXX (f32), 0dX...X (f64), 0xXXXX (16 bits).
std::string floatImm(const APFloat &v);
const char *spaceName(Space s);

class KernelPrinter {
public:
  KernelPrinter(LLVM::LLVMFuncOp func, StringRef chip, const DataLayout &layout)
      : func(func), chip(chip), layout(layout), body(bodyText) {
    StringRef digits = chip.drop_front(3).take_while(llvm::isDigit);
    digits.getAsInteger(10, sm);
  }

  LogicalResult print(llvm::raw_ostream &os);

private:
  // Registers.
  Reg fresh(RC rc) { return Reg{rc, ++counts[static_cast<int>(rc)]}; }
  Reg fresh(Type t) { return fresh(rcOf(t)); }

  // Emission: "\top a, b, c;".
  void emit(const Twine &opcode, std::initializer_list<Opnd> ops) {
    body << "\t";
    opcode.print(body);
    bool first = true;
    for (const Opnd &o : ops) {
      body << (first ? " " : ", ") << o;
      first = false;
    }
    body << ";\n";
  }

  LogicalResult fail(Operation *op, const Twine &why) {
    return op->emitOpError() << "has no PTX template: " << why;
  }

  // Values.
  ArrayRef<Reg> lanes(Value v) { return vals.find(v)->second; }
  Reg scalar(Value v) { return vals.find(v)->second.front(); }
  bool isPtr(Value v) { return isa<LLVM::LLVMPointerType>(v.getType()); }

  /// `p` as a register holding an address in the space `want`.
  Reg address(const Ptr &p, Space want);
  /// The space that a pointer of type `t` holding `p` is an address in.
  Space spaceOfType(Type t, const Ptr &p);
  /// "[%rd5+16]": `p` as a load's or store's address operand.
  std::string memOperand(const Ptr &p);
  /// `ptr`'s address operand where it points into shared memory (its own
  /// CTA's, also as a shared::cluster address), else failure.
  FailureOr<std::string> sharedOperand(Value ptr);

  LogicalResult printOp(Operation *op);
  LogicalResult printConstant(LLVM::ConstantOp op);
  LogicalResult printIntBinary(Operation *op, StringRef name);
  LogicalResult printFloatBinary(Operation *op, StringRef name);
  LogicalResult printICmp(LLVM::ICmpOp op);
  LogicalResult printFCmp(LLVM::FCmpOp op);
  LogicalResult printSelect(LLVM::SelectOp op);
  LogicalResult printCast(Operation *op);
  LogicalResult printBitcast(LLVM::BitcastOp op);
  FailureOr<GEPPlan> planGEP(LLVM::GEPOp op);
  LogicalResult printGEP(LLVM::GEPOp op);
  LogicalResult printLoad(LLVM::LoadOp op);
  LogicalResult printStore(LLVM::StoreOp op);
  LogicalResult printIntrinsic(LLVM::CallIntrinsicOp op);
  LogicalResult printInlineAsm(LLVM::InlineAsmOp op);
  LogicalResult printMma(NVVM::MmaOp op);
  LogicalResult printBranch(Operation *op);
  /// Whether a branch into `b` prints `b` in its place (see print()).
  bool copiedIntoBranches(Block *b);
  /// The block a `.pragma "nounroll"` goes at the head of for the loop
  /// whose back edge `latch` ends with, or null if it is not so marked.
  Block *noUnrollHead(Block *latch);
  /// `header`'s ops and branch again, in place of a branch into it; its
  /// values end in the registers they got the first time.
  LogicalResult printHeaderCopy(Block *header);

  /// Lane by lane: `f(in lanes, out type)` returns each result lane.
  LogicalResult perLane(Operation *op, function_ref<FailureOr<Reg>(ArrayRef<Reg>, Type, Type)> f);
  /// A float operand as f32 (bf16 widened; f16 and f32 as they are).
  Reg widenBF16(Reg r);
  Reg toF32(Reg r, Type t);
  /// An i8 lane extended to a clean 16 bits.
  Reg clean8(Reg r, bool isSigned);
  FailureOr<Reg> convert(Operation *op, Reg in, Type from, Type to, bool isSigned, bool sat);
  /// A `mov` of `src` into `dst` for a parallel copy.
  void copy(Reg dst, Reg src);
  LogicalResult edgeCopies(Operation *op, Block *dest, ValueRange args);

  void findReadOnlyParams();
  /// The ops whose values the printed code reads, in `needed`: every op
  /// with an effect, and what it reads, transitively, where a
  /// getelementptr reads the indices its plan scales (not the adds of
  /// constants it folded into the address). A pure op outside prints
  /// nothing.
  LogicalResult findNeeded();
  int rootParam(Value ptr);
  /// The parameter every value a block's pointer argument takes is a gep
  /// of (a pointer a loop carries, uop-pointer-inductions'), or -1.
  int carriedParam(BlockArgument arg);

  LLVM::LLVMFuncOp func;
  StringRef chip;
  unsigned sm = 0;
  const DataLayout &layout;
  SmallString<0> bodyText;
  llvm::raw_svector_ostream body;
  unsigned counts[4] = {0, 0, 0, 0};
  DenseMap<Value, SmallVector<Reg, 4>> vals;
  DenseMap<Value, Ptr> ptrs;
  DenseMap<Block *, unsigned> labels;
  SmallVector<bool> readOnly, noAlias;
  unsigned edges = 0;
  Block *next = nullptr; // the block printed after the current one
  llvm::SmallPtrSet<Block *, 8> copiedHeaders;
  DenseMap<Block *, unsigned> position; // print order
  llvm::SmallPtrSet<Block *, 4> noUnrollHeads;
  llvm::DenseSet<Operation *> needed;
};

} // namespace mlir::uop::ptx

#endif // UOP_LIB_TARGET_PTX_KERNELPRINTER_H

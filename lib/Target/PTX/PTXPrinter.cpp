//===- PTXPrinter.cpp - PTX text straight from the NVVM-level IR ----------===//
//
// One walk over each kernel: every value gets virtual registers (a vector or
// struct one per lane), every op a short PTX template. This file has the
// registers and pointers, control flow, the op table and the kernel's
// frame; the templates by kind are in PTXArithmetic.cpp, PTXMemory.cpp and
// PTXIntrinsics.cpp; the conventions in KernelPrinter.h.
//
//===----------------------------------------------------------------------===//

#include "uop/Target/PTX/PTXPrinter.h"

#include "KernelPrinter.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

using namespace mlir;
using namespace mlir::uop;
using namespace mlir::uop::ptx;

unsigned mlir::uop::ptx::bitsOf(Type t) {
  if (isa<LLVM::LLVMPointerType>(t))
    return 64;
  return t.getIntOrFloatBitWidth();
}

RC mlir::uop::ptx::rcOf(Type t) {
  unsigned bits = bitsOf(t);
  return bits == 1 ? RC::Pred : bits <= 16 ? RC::B16 : bits <= 32 ? RC::B32 : RC::B64;
}

const char *const mlir::uop::ptx::kMov[4] = {"mov.pred", "mov.b16", "mov.b32", "mov.b64"};

/// The scalar types a value's lanes have: a vector's elements, a struct's
/// fields (scalars only), or the value itself.
LogicalResult mlir::uop::ptx::laneTypes(Type t, SmallVectorImpl<Type> &out) {
  if (auto v = dyn_cast<VectorType>(t)) {
    if (v.getRank() != 1 || v.isScalable())
      return failure();
    out.append(v.getNumElements(), v.getElementType());
    return success();
  }
  if (auto s = dyn_cast<LLVM::LLVMStructType>(t)) {
    for (Type f : s.getBody())
      if (failed(laneTypes(f, out)))
        return failure();
    return success();
  }
  if (isa<IntegerType, FloatType, LLVM::LLVMPointerType>(t)) {
    out.push_back(t);
    return success();
  }
  return failure();
}

/// The lanes [first, first + count) of an aggregate that the field at
/// `position` (extractvalue's indices) occupies.
FailureOr<std::pair<size_t, size_t>> mlir::uop::ptx::fieldLanes(Type t,
                                                                ArrayRef<int64_t> position) {
  size_t first = 0;
  for (int64_t index : position) {
    ArrayRef<Type> fields;
    SmallVector<Type> repeated;
    if (auto s = dyn_cast<LLVM::LLVMStructType>(t)) {
      fields = s.getBody();
    } else if (auto a = dyn_cast<LLVM::LLVMArrayType>(t)) {
      repeated.assign(a.getNumElements(), a.getElementType());
      fields = repeated;
    } else {
      return failure();
    }
    if (index < 0 || static_cast<size_t>(index) >= fields.size())
      return failure();
    for (Type f : fields.take_front(index)) {
      SmallVector<Type> l;
      if (failed(laneTypes(f, l)))
        return failure();
      first += l.size();
    }
    t = fields[index];
  }
  SmallVector<Type> l;
  if (failed(laneTypes(t, l)))
    return failure();
  return std::make_pair(first, l.size());
}

/// The space a pointer of type `t` holds an address of, as bits: generic
/// for address space 0 (whatever the pointer is known to point into).
Space mlir::uop::ptx::typeSpace(Type t) {
  unsigned as = cast<LLVM::LLVMPointerType>(t).getAddressSpace();
  return as == 1   ? Space::Global
         : as == 3 ? Space::Shared
         : as == 7 ? Space::Cluster
                   : Space::Generic;
}

Type mlir::uop::ptx::elementOf(Type t) {
  if (auto v = dyn_cast<VectorType>(t))
    return v.getElementType();
  return t;
}

/// "s32", "u16", "b64", "f32": a PTX type suffix.
std::string mlir::uop::ptx::sfx(char kind, unsigned bits) { return kind + std::to_string(bits); }

std::string mlir::uop::ptx::floatImm(const APFloat &v) {
  std::string s;
  llvm::raw_string_ostream os(s);
  APInt bits = v.bitcastToAPInt();
  if (bits.getBitWidth() == 64)
    os << "0d" << llvm::format_hex_no_prefix(bits.getZExtValue(), 16, true);
  else if (bits.getBitWidth() == 32)
    os << "0f" << llvm::format_hex_no_prefix(bits.getZExtValue(), 8, true);
  else
    os << llvm::format_hex(bits.getZExtValue(), 6, true);
  return s;
}

//===----------------------------------------------------------------------===//
// Pointers
//===----------------------------------------------------------------------===//

Space KernelPrinter::spaceOfType(Type t, const Ptr &p) {
  Space s = typeSpace(t);
  // The block's own shared address is one of the cluster's window too.
  if (s == Space::Generic || (s == Space::Cluster && p.space == Space::Shared))
    return p.space;
  return s;
}

Reg KernelPrinter::address(const Ptr &p, Space want) {
  Reg r = p.reg;
  if (p.off != 0) {
    Reg s = fresh(RC::B64);
    emit("add.s64", {s, r, std::to_string(p.off)});
    r = s;
  }
  if (want == p.space)
    return r;
  if (p.space != Space::Generic) { // to generic first
    Reg g = fresh(RC::B64);
    emit("cvta" + std::string(spaceName(p.space)) + ".u64", {g, r});
    r = g;
  }
  if (want == Space::Generic)
    return r;
  Reg s = fresh(RC::B64);
  emit("cvta.to" + std::string(spaceName(want)) + ".u64", {s, r});
  return s;
}

FailureOr<std::string> KernelPrinter::sharedOperand(Value ptr) {
  Ptr p = ptrs.find(ptr)->second;
  if (spaceOfType(ptr.getType(), p) != Space::Shared)
    return failure();
  p.space = Space::Shared;
  return memOperand(p);
}

std::string KernelPrinter::memOperand(const Ptr &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (p.off >= INT32_MIN && p.off <= INT32_MAX) {
    os << "[" << p.reg;
    if (p.off != 0)
      os << "+" << p.off;
    os << "]";
  } else {
    os << "[" << address(p, p.space) << "]";
  }
  return s;
}

int KernelPrinter::carriedParam(BlockArgument arg) {
  SmallVector<Value> work{arg};
  DenseSet<BlockArgument> seen;
  int param = -1;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    while (auto gep = v.getDefiningOp<LLVM::GEPOp>())
      v = gep.getBase();
    auto a = dyn_cast<BlockArgument>(v);
    if (!a)
      return -1;
    Block *owner = a.getOwner();
    if (owner->isEntryBlock()) {
      if (param >= 0 && param != static_cast<int>(a.getArgNumber()))
        return -1;
      param = a.getArgNumber();
      continue;
    }
    if (!seen.insert(a).second)
      continue;
    for (Block *pred : owner->getPredecessors()) {
      auto branch = dyn_cast<BranchOpInterface>(pred->getTerminator());
      if (!branch)
        return -1;
      for (unsigned s = 0; s < branch->getNumSuccessors(); ++s) {
        if (branch->getSuccessor(s) != owner)
          continue;
        Value in = branch.getSuccessorOperands(s)[a.getArgNumber()];
        if (!in)
          return -1;
        work.push_back(in);
      }
    }
  }
  return param;
}

int KernelPrinter::rootParam(Value v) {
  while (true) {
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner()->isEntryBlock())
        return static_cast<int>(arg.getArgNumber());
      int carried = carriedParam(arg);
      return carried >= 0 ? carried : -2;
    }
    Operation *def = v.getDefiningOp();
    if (auto gep = dyn_cast<LLVM::GEPOp>(def))
      v = gep.getBase();
    else if (auto cast = dyn_cast<LLVM::AddrSpaceCastOp>(def))
      v = cast.getArg();
    else if (isa<LLVM::AddressOfOp, LLVM::ZeroOp>(def))
      return -1;
    else
      return -2; // unknown: could be any argument
  }
}

/// ld.global.nc (the read-only data path) is right only for a buffer the
/// kernel never writes: a noalias argument with no store, atomic or escape.
void KernelPrinter::findReadOnlyParams() {
  unsigned n = func.getNumArguments();
  readOnly.assign(n, true);
  noAlias.assign(n, false);
  for (unsigned i = 0; i < n; ++i)
    noAlias[i] = static_cast<bool>(func.getArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName()));
  auto written = [&](Value ptr) {
    // Shared memory, the block's or the cluster's, holds no parameter's data.
    Space space = typeSpace(ptr.getType());
    if (space == Space::Shared || space == Space::Cluster)
      return;
    int p = rootParam(ptr);
    if (p >= 0)
      readOnly[p] = false;
    else if (p == -2)
      readOnly.assign(n, false);
  };
  func.walk([&](Operation *op) {
    if (auto store = dyn_cast<LLVM::StoreOp>(op)) {
      written(store.getAddr());
      if (isPtr(store.getValue()))
        written(store.getValue());
      return;
    }
    // A branch passes a pointer to a block argument, whose own uses are
    // walked: a store through it finds the parameter by rootParam.
    if (isa<LLVM::LoadOp, LLVM::GEPOp, LLVM::AddrSpaceCastOp, NVVM::CpAsyncOp, NVVM::LdMatrixOp,
            NVVM::MapaOp, LLVM::BrOp, LLVM::CondBrOp>(op))
      return;
    // Anything else that takes a pointer may write through it.
    for (Value v : op->getOperands())
      if (isPtr(v))
        written(v);
  });
}

//===----------------------------------------------------------------------===//
// Lane helpers
//===----------------------------------------------------------------------===//

LogicalResult KernelPrinter::perLane(Operation *op,
                                     function_ref<FailureOr<Reg>(ArrayRef<Reg>, Type, Type)> f) {
  Type in = elementOf(op->getOperand(0).getType());
  Type out = elementOf(op->getResult(0).getType());
  // As many lanes as the widest operand (a select's condition may be scalar).
  size_t n = 1;
  for (Value v : op->getOperands())
    n = std::max(n, lanes(v).size());
  SmallVector<Reg, 4> result;
  SmallVector<Reg, 3> args;
  for (size_t i = 0; i < n; ++i) {
    args.clear();
    for (Value v : op->getOperands()) {
      ArrayRef<Reg> l = lanes(v);
      args.push_back(l.size() == 1 ? l[0] : l[i]); // a scalar condition selects every lane
    }
    FailureOr<Reg> r = f(args, in, out);
    if (failed(r))
      return failure();
    result.push_back(*r);
  }
  vals[op->getResult(0)] = std::move(result);
  return success();
}

Reg KernelPrinter::widenBF16(Reg r) {
  Reg w = fresh(RC::B32), s = fresh(RC::B32);
  emit("cvt.u32.u16", {w, r});
  emit("shl.b32", {s, w, "16"});
  return s;
}

Reg KernelPrinter::toF32(Reg r, Type t) {
  if (t.isBF16())
    return widenBF16(r);
  if (t.isF16()) {
    Reg w = fresh(RC::B32);
    emit("cvt.f32.f16", {w, r});
    return w;
  }
  return r;
}

Reg KernelPrinter::clean8(Reg r, bool isSigned) {
  Reg c = fresh(RC::B16);
  if (isSigned)
    emit("cvt.s16.s8", {c, r});
  else
    emit("and.b16", {c, r, "255"});
  return c;
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

void KernelPrinter::copy(Reg dst, Reg src) { emit(kMov[static_cast<int>(dst.rc)], {dst, src}); }

LogicalResult KernelPrinter::edgeCopies(Operation *op, Block *dest, ValueRange args) {
  SmallVector<std::pair<Reg, Reg>> moves; // dst, src
  for (auto [arg, v] : llvm::zip(dest->getArguments(), args)) {
    if (isPtr(arg)) {
      Reg src = address(ptrs.lookup(v), ptrs.lookup(arg).space);
      moves.push_back({ptrs.lookup(arg).reg, src});
      continue;
    }
    for (auto [d, s] : llvm::zip(lanes(arg), lanes(v)))
      if (d.rc != s.rc || d.n != s.n)
        moves.push_back({d, s});
  }
  // A parallel copy: if a source is also a destination, read every source
  // into a temporary first.
  bool overlap = false;
  for (auto &[d, s0] : moves)
    for (auto &[d1, s] : moves)
      overlap |= d.rc == s.rc && d.n == s.n;
  if (overlap)
    for (auto &[d, s] : moves) {
      Reg t = fresh(s.rc);
      copy(t, s);
      s = t;
    }
  for (auto &[d, s] : moves)
    copy(d, s);
  return success();
}

bool KernelPrinter::copiedIntoBranches(Block *b) {
  if (b->isEntryBlock() || !isa<LLVM::CondBrOp>(b->getTerminator()))
    return false;
  unsigned ops = 0;
  for (Operation &op : b->without_terminator())
    if (++ops > 8 || !isPure(&op) ||
        llvm::any_of(op.getResults(), [&](Value v) { return isPtr(v); }))
      return false;
  // Entered by unconditional branches only, the first of them (in print
  // order) before it, and its values used only after it: the copy in that
  // first branch defines the registers before anything reads them.
  for (Block *pred : b->getPredecessors())
    if (!isa<LLVM::BrOp>(pred->getTerminator()))
      return false;
  unsigned before = 0;
  for (Block *pred : b->getPredecessors())
    before += position[pred] < position[b];
  if (before != 1)
    return false;
  for (Operation &op : b->without_terminator())
    for (Operation *user : op.getUsers())
      if (user->getBlock() != b && position[user->getBlock()] < position[b])
        return false;
  return true;
}

Block *KernelPrinter::noUnrollHead(Block *latch) {
  auto br = dyn_cast<LLVM::BrOp>(latch->getTerminator());
  if (!br)
    return nullptr;
  // convert-cf-to-llvm keeps scf.for's annotation as a discardable attribute.
  auto annotation = br.getLoopAnnotationAttr();
  if (!annotation)
    annotation = br->getAttrOfType<LLVM::LoopAnnotationAttr>("llvm.loop_annotation");
  LLVM::LoopUnrollAttr unroll = annotation ? annotation.getUnroll() : nullptr;
  if (!unroll || !unroll.getDisable() || !unroll.getDisable().getValue())
    return nullptr;
  Block *header = br.getDest();
  if (!copiedHeaders.contains(header))
    return header;
  // Printed in place of the branches into it, the header's test ends the
  // loop: ptxas's loop starts at the header's successor inside it.
  for (Block *succ : header->getSuccessors())
    if (position[succ] > position[header] && position[succ] <= position[latch])
      return succ;
  return nullptr;
}

LogicalResult KernelPrinter::printHeaderCopy(Block *header) {
  // The registers of the header's values from an earlier copy, if any.
  DenseMap<Value, SmallVector<Reg, 4>> first;
  for (Operation &op : header->without_terminator())
    for (Value v : op.getResults())
      if (auto it = vals.find(v); it != vals.end())
        first[v] = it->second;
  for (Operation &op : header->without_terminator())
    if (failed(printOp(&op)))
      return failure();
  for (auto &[v, regs] : first) {
    auto it = vals.find(v);
    if (it == vals.end())
      continue;
    for (auto [old, now] : llvm::zip(regs, it->second))
      if (old.rc != now.rc || old.n != now.n)
        copy(old, now);
    it->second = regs;
  }
  return printBranch(header->getTerminator());
}

LogicalResult KernelPrinter::printBranch(Operation *op) {
  auto label = [&](Block *b) {
    std::string s;
    llvm::raw_string_ostream(s) << "$L__BB0_" << labels.lookup(b);
    return s;
  };
  if (auto br = dyn_cast<LLVM::BrOp>(op)) {
    if (failed(edgeCopies(op, br.getDest(), br.getDestOperands())))
      return failure();
    if (copiedHeaders.contains(br.getDest()))
      return printHeaderCopy(br.getDest());
    if (br.getDest() != next)
      emit("bra.uni", {label(br.getDest())});
    return success();
  }
  auto cb = cast<LLVM::CondBrOp>(op);
  Reg c = scalar(cb.getCondition());
  Block *t = cb.getTrueDest(), *f = cb.getFalseDest();
  ValueRange ta = cb.getTrueDestOperands(), fa = cb.getFalseDestOperands();
  if (ta.empty() && fa.empty() && t == next) { // fall through to the true side
    body << "\t@!" << c << " bra " << label(f) << ";\n";
    return success();
  }
  if (ta.empty()) {
    body << "\t@" << c << " bra " << label(t) << ";\n";
    if (failed(edgeCopies(op, f, fa)))
      return failure();
    if (f != next)
      emit("bra.uni", {label(f)});
    return success();
  }
  if (fa.empty()) {
    body << "\t@!" << c << " bra " << label(f) << ";\n";
    if (failed(edgeCopies(op, t, ta)))
      return failure();
    if (t != next)
      emit("bra.uni", {label(t)});
    return success();
  }
  std::string edge = "$L__EDGE0_" + std::to_string(++edges);
  body << "\t@!" << c << " bra " << edge << ";\n";
  if (failed(edgeCopies(op, t, ta)))
    return failure();
  emit("bra.uni", {label(t)});
  body << edge << ":\n";
  if (failed(edgeCopies(op, f, fa)))
    return failure();
  if (f != next)
    emit("bra.uni", {label(f)});
  return success();
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult KernelPrinter::findNeeded() {
  SmallVector<Operation *> work;
  auto need = [&](Operation *op) {
    if (op && needed.insert(op).second)
      work.push_back(op);
  };
  func.walk([&](Operation *op) {
    if (op != func && (!isPure(op) || op->getNumResults() == 0))
      need(op);
  });
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (auto gep = dyn_cast<LLVM::GEPOp>(op)) {
      FailureOr<GEPPlan> plan = planGEP(gep);
      if (failed(plan))
        return failure();
      need(gep.getBase().getDefiningOp());
      for (auto [v, stride] : plan->scaled)
        need(v.getDefiningOp());
      continue;
    }
    for (Value v : op->getOperands())
      need(v.getDefiningOp());
  }
  return success();
}

LogicalResult KernelPrinter::printOp(Operation *op) {
  // Pure values the printed code never reads print nothing: unused ones
  // (convert-gpu-to-nvvm leaves some) and the adds of constants an
  // address took into its offset.
  if (isPure(op) && op->getNumResults() > 0 && !needed.contains(op))
    return success();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](LLVM::ConstantOp o) { return printConstant(o); })
      .Case([&](LLVM::ZeroOp o) -> LogicalResult {
        if (isPtr(o.getResult())) {
          Reg r = fresh(RC::B64);
          emit("mov.b64", {r, "0"});
          ptrs[o.getResult()] = Ptr{r, 0, typeSpace(o.getType()), -1};
          return success();
        }
        SmallVector<Type> types;
        if (failed(laneTypes(o.getType(), types)))
          return fail(o, "a zero of this type");
        SmallVector<Reg, 4> out;
        for (Type t : types) {
          Reg r = fresh(t);
          emit(kMov[static_cast<int>(r.rc)], {r, "0"});
          out.push_back(r);
        }
        vals[o.getResult()] = std::move(out);
        return success();
      })
      .Case<LLVM::PoisonOp, LLVM::UndefOp>([&](Operation *o) -> LogicalResult {
        if (isPtr(o->getResult(0))) {
          ptrs[o->getResult(0)] = Ptr{fresh(RC::B64), 0, typeSpace(o->getResult(0).getType()), -1};
          return success();
        }
        SmallVector<Type> types;
        if (failed(laneTypes(o->getResult(0).getType(), types)))
          return fail(o, "an undefined value of this type");
        SmallVector<Reg, 4> out;
        for (Type t : types)
          out.push_back(fresh(t)); // never written: any value will do
        vals[o->getResult(0)] = std::move(out);
        return success();
      })
      .Case([&](LLVM::FreezeOp o) {
        vals[o.getResult()] = SmallVector<Reg, 4>(lanes(o.getVal()));
        return success();
      })
      .Case([&](LLVM::AddOp o) { return printIntBinary(o, "add"); })
      .Case([&](LLVM::SubOp o) { return printIntBinary(o, "sub"); })
      .Case([&](LLVM::MulOp o) { return printIntBinary(o, "mul"); })
      .Case([&](LLVM::SDivOp o) { return printIntBinary(o, "sdiv"); })
      .Case([&](LLVM::UDivOp o) { return printIntBinary(o, "udiv"); })
      .Case([&](LLVM::SRemOp o) { return printIntBinary(o, "srem"); })
      .Case([&](LLVM::URemOp o) { return printIntBinary(o, "urem"); })
      .Case([&](LLVM::AndOp o) { return printIntBinary(o, "and"); })
      .Case([&](LLVM::OrOp o) { return printIntBinary(o, "or"); })
      .Case([&](LLVM::XOrOp o) { return printIntBinary(o, "xor"); })
      .Case([&](LLVM::ShlOp o) { return printIntBinary(o, "shl"); })
      .Case([&](LLVM::LShrOp o) { return printIntBinary(o, "lshr"); })
      .Case([&](LLVM::AShrOp o) { return printIntBinary(o, "ashr"); })
      .Case([&](LLVM::FAddOp o) { return printFloatBinary(o, "add"); })
      .Case([&](LLVM::FSubOp o) { return printFloatBinary(o, "sub"); })
      .Case([&](LLVM::FMulOp o) { return printFloatBinary(o, "mul"); })
      .Case([&](LLVM::FDivOp o) { return printFloatBinary(o, "div"); })
      .Case([&](LLVM::FNegOp o) {
        return perLane(o, [&](ArrayRef<Reg> in, Type t, Type) -> FailureOr<Reg> {
          Reg d = fresh(t);
          unsigned bits = bitsOf(t);
          if (bits == 16) // flip the sign bit: also right for bf16
            emit("xor.b16", {d, in[0], "-32768"});
          else
            emit(("neg." + sfx('f', bits)), {d, in[0]});
          return d;
        });
      })
      .Case([&](LLVM::FMAOp o) {
        return perLane(o, [&](ArrayRef<Reg> in, Type t, Type) -> FailureOr<Reg> {
          Reg d = fresh(t);
          emit(t.isBF16() ? "fma.rn.bf16" : ("fma.rn." + sfx('f', bitsOf(t))),
               {d, in[0], in[1], in[2]});
          return d;
        });
      })
      .Case([&](LLVM::ICmpOp o) { return printICmp(o); })
      .Case([&](LLVM::FCmpOp o) { return printFCmp(o); })
      .Case([&](LLVM::SelectOp o) { return printSelect(o); })
      .Case<LLVM::TruncOp, LLVM::ZExtOp, LLVM::SExtOp, LLVM::FPTruncOp, LLVM::FPExtOp,
            LLVM::SIToFPOp, LLVM::UIToFPOp, LLVM::FPToSIOp, LLVM::FPToUIOp>(
          [&](Operation *o) { return printCast(o); })
      .Case([&](LLVM::BitcastOp o) { return printBitcast(o); })
      .Case([&](LLVM::ExtractElementOp o) -> LogicalResult {
        APInt index;
        if (!matchPattern(o.getPosition(), m_ConstantInt(&index)))
          return fail(o, "extractelement at a dynamic position");
        vals[o.getResult()] = {lanes(o.getVector())[index.getZExtValue()]};
        return success();
      })
      .Case([&](LLVM::InsertElementOp o) -> LogicalResult {
        APInt index;
        if (!matchPattern(o.getPosition(), m_ConstantInt(&index)))
          return fail(o, "insertelement at a dynamic position");
        SmallVector<Reg, 4> out(lanes(o.getVector()));
        out[index.getZExtValue()] = scalar(o.getValue());
        vals[o.getResult()] = std::move(out);
        return success();
      })
      .Case([&](LLVM::ShuffleVectorOp o) {
        ArrayRef<Reg> a = lanes(o.getV1()), b = lanes(o.getV2());
        SmallVector<Reg, 4> out;
        for (int32_t m : o.getMask())
          out.push_back(m < 0 ? fresh(a[0].rc)
                              : (static_cast<size_t>(m) < a.size() ? a[m] : b[m - a.size()]));
        vals[o.getResult()] = std::move(out);
        return success();
      })
      .Case([&](LLVM::ExtractValueOp o) -> LogicalResult {
        FailureOr<std::pair<size_t, size_t>> slice =
            fieldLanes(o.getContainer().getType(), o.getPosition());
        if (failed(slice))
          return fail(o, "extractvalue from this aggregate");
        vals[o.getResult()] =
            SmallVector<Reg, 4>(lanes(o.getContainer()).slice(slice->first, slice->second));
        return success();
      })
      .Case([&](LLVM::InsertValueOp o) -> LogicalResult {
        FailureOr<std::pair<size_t, size_t>> slice =
            fieldLanes(o.getContainer().getType(), o.getPosition());
        if (failed(slice) || isPtr(o.getValue()))
          return fail(o, "insertvalue into this aggregate");
        SmallVector<Reg, 4> out(lanes(o.getContainer()));
        llvm::copy(lanes(o.getValue()), out.begin() + slice->first);
        vals[o.getResult()] = std::move(out);
        return success();
      })
      .Case([&](LLVM::GEPOp o) { return printGEP(o); })
      .Case([&](LLVM::AddrSpaceCastOp o) {
        Ptr p = ptrs.lookup(o.getArg());
        Space want = spaceOfType(o.getType(), p);
        if (want != p.space && want != Space::Generic) {
          p.reg = address(p, want);
          p.off = 0;
          p.space = want;
        }
        ptrs[o.getResult()] = p;
        return success();
      })
      .Case([&](LLVM::PtrToIntOp o) -> LogicalResult {
        Reg r = address(ptrs.find(o.getArg())->second, typeSpace(o.getArg().getType()));
        if (bitsOf(o.getType()) != 64)
          return fail(o, "ptrtoint to other than i64");
        vals[o.getResult()] = {r};
        return success();
      })
      .Case([&](LLVM::IntToPtrOp o) -> LogicalResult {
        if (bitsOf(o.getArg().getType()) != 64)
          return fail(o, "inttoptr from other than i64");
        ptrs[o.getResult()] = Ptr{scalar(o.getArg()), 0, typeSpace(o.getType()), -1};
        return success();
      })
      .Case([&](LLVM::AddressOfOp o) -> LogicalResult {
        auto global =
            SymbolTable::lookupNearestSymbolFrom<LLVM::GlobalOp>(o, o.getGlobalNameAttr());
        if (!global || global.getAddrSpace() != 3)
          return fail(o, "the address of other than a shared global");
        Reg r = fresh(RC::B64);
        emit("mov.u64", {r, o.getGlobalName()});
        ptrs[o.getResult()] = Ptr{r, 0, Space::Shared, -1};
        return success();
      })
      .Case([&](LLVM::LoadOp o) { return printLoad(o); })
      .Case([&](LLVM::StoreOp o) { return printStore(o); })
      .Case([&](LLVM::CallIntrinsicOp o) { return printIntrinsic(o); })
      .Case([&](LLVM::InlineAsmOp o) { return printInlineAsm(o); })
      .Case<LLVM::BrOp, LLVM::CondBrOp>([&](Operation *o) { return printBranch(o); })
      .Case([&](LLVM::ReturnOp o) -> LogicalResult {
        if (o.getNumOperands() != 0)
          return fail(o, "a kernel that returns a value");
        emit("ret", {});
        return success();
      })
      .Case([&](NVVM::BarrierOp o) -> LogicalResult {
        if (o->getNumOperands() != 0)
          return fail(o, "a barrier with an id or thread count");
        emit("bar.sync", {"0"});
        return success();
      })
      .Case([&](NVVM::Barrier0Op) {
        emit("bar.sync", {"0"});
        return success();
      })
      .Case([&](NVVM::CpAsyncOp o) -> LogicalResult {
        const Ptr &dst = ptrs.find(o.getDst())->second;
        const Ptr &src = ptrs.find(o.getSrc())->second;
        Ptr d = dst, s = src;
        d.space = spaceOfType(o.getDst().getType(), dst);
        s.space = spaceOfType(o.getSrc().getType(), src);
        if (d.space != Space::Shared || s.space != Space::Global)
          return fail(o, "cp.async other than global to shared");
        std::string da = memOperand(d), sa = memOperand(s);
        std::string opcode = std::string("cp.async.") +
                             (o.getModifier() == NVVM::LoadCacheModifierKind::CG ? "cg" : "ca") +
                             ".shared.global";
        std::string size = std::to_string(o.getSize());
        if (o.getCpSize())
          emit(opcode, {da, sa, size, scalar(o.getCpSize())});
        else
          emit(opcode, {da, sa, size});
        return success();
      })
      .Case([&](NVVM::CpAsyncCommitGroupOp) {
        emit("cp.async.commit_group", {});
        return success();
      })
      .Case([&](NVVM::CpAsyncWaitGroupOp o) {
        emit("cp.async.wait_group", {std::to_string(o.getN())});
        return success();
      })
      .Case([&](NVVM::LdMatrixOp o) -> LogicalResult {
        if (o.getEltType() != NVVM::LdStMatrixEltType::B16 || o.getShape().getM() != 8 ||
            o.getShape().getN() != 8)
          return fail(o, "ldmatrix other than m8n8 b16");
        const Ptr &p = ptrs.find(o.getPtr())->second;
        if (spaceOfType(o.getPtr().getType(), p) != Space::Shared)
          return fail(o, "ldmatrix from other than shared memory");
        std::string addr = memOperand(p);
        SmallVector<Reg, 4> out;
        for (unsigned i = 0; i < o.getNum(); ++i)
          out.push_back(fresh(RC::B32));
        body << "\tldmatrix.sync.aligned.m8n8.x" << o.getNum()
             << (o.getLayout() == NVVM::MMALayout::col ? ".trans" : "") << ".shared.b16 {";
        for (auto [i, r] : llvm::enumerate(out))
          body << (i ? ", " : "") << r;
        body << "}, " << addr << ";\n";
        vals[o.getResult()] = std::move(out);
        return success();
      })
      .Case([&](NVVM::MmaOp o) { return printMma(o); })
      .Case([&](NVVM::FenceProxyOp o) -> LogicalResult {
        switch (o.getKind()) {
        case NVVM::ProxyKind::alias:
          emit("fence.proxy.alias", {});
          return success();
        case NVVM::ProxyKind::async:
          emit("fence.proxy.async", {});
          return success();
        case NVVM::ProxyKind::async_global:
          emit("fence.proxy.async.global", {});
          return success();
        case NVVM::ProxyKind::async_shared:
          emit(o.getSpace() == NVVM::SharedSpace::shared_cluster
                   ? "fence.proxy.async.shared::cluster"
                   : "fence.proxy.async.shared::cta",
               {});
          return success();
        default:
          return fail(o, "this proxy kind");
        }
      })
      .Case([&](NVVM::MBarrierInitOp o) -> LogicalResult {
        FailureOr<std::string> bar = sharedOperand(o.getAddr());
        if (o.getPredicate() || failed(bar))
          return fail(o, "mbarrier.init other than unpredicated, in shared memory");
        emit("mbarrier.init.shared.b64", {*bar, scalar(o.getCount())});
        return success();
      })
      .Case([&](NVVM::MBarrierArriveExpectTxOp o) -> LogicalResult {
        FailureOr<std::string> bar = sharedOperand(o.getAddr());
        if (o.getPredicate() || o.getRelaxed() || o->getNumResults() ||
            o.getScope() != NVVM::MemScopeKind::CTA || failed(bar))
          return fail(o, "mbarrier.arrive.expect_tx other than the CTA's, unpredicated, without "
                         "a state, in shared memory");
        emit("mbarrier.arrive.expect_tx.shared.b64", {"_", *bar, scalar(o.getTxcount())});
        return success();
      })
      .Case([&](NVVM::MBarrierTryWaitParityOp o) -> LogicalResult {
        // Tried until the phase has completed, as upstream's op is.
        FailureOr<std::string> bar = sharedOperand(o.getAddr());
        if (failed(bar))
          return fail(o, "mbarrier.try_wait.parity other than in shared memory");
        Reg done = fresh(RC::Pred);
        std::string again = "$L__WAIT0_" + std::to_string(++edges);
        body << again << ":\n";
        emit("mbarrier.try_wait.parity.shared.b64",
             {done, *bar, scalar(o.getPhase()), scalar(o.getTicks())});
        body << "\t@!" << done << " bra " << again << ";\n";
        return success();
      })
      .Case([&](NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp o) -> LogicalResult {
        FailureOr<std::string> dst = sharedOperand(o.getDstMem()), bar = sharedOperand(o.getMbar());
        if (o.getMode() != NVVM::TMALoadMode::TILE || o.getL2CacheHint() || o.getPredicate() ||
            o.getGroup() || failed(dst) || failed(bar))
          return fail(o, "cp.async.bulk.tensor other than a tile to the CTA's own shared memory "
                         "(or multicast to the cluster's) without cache hint or predicate");
        Reg map = address(ptrs.find(o.getTmaDescriptor())->second, Space::Generic);
        body << "\tcp.async.bulk.tensor." << o.getCoordinates().size()
             << "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
             << (o.getMulticastMask() ? ".multicast::cluster " : " ") << *dst << ", [" << map
             << ", {";
        for (auto [i, c] : llvm::enumerate(o.getCoordinates()))
          body << (i ? ", " : "") << scalar(c);
        body << "}], " << *bar;
        if (Value mask = o.getMulticastMask())
          body << ", " << scalar(mask);
        body << ";\n";
        return success();
      })
      .Case([&](NVVM::MapaOp o) -> LogicalResult {
        Ptr p = ptrs.lookup(o.getA());
        if (spaceOfType(o.getA().getType(), p) != Space::Shared)
          return fail(o, "mapa of other than a shared-memory address");
        Reg a = address(p, Space::Shared), d = fresh(RC::B64);
        emit("mapa.shared::cluster.u64", {d, a, scalar(o.getB())});
        ptrs[o.getResult()] = Ptr{d, 0, Space::Cluster, -1};
        return success();
      })
      .Case([&](NVVM::ClusterArriveOp o) {
        emit(o.getAlignedAttr() ? "barrier.cluster.arrive.aligned" : "barrier.cluster.arrive", {});
        return success();
      })
      .Case([&](NVVM::ClusterWaitOp o) {
        emit(o.getAlignedAttr() ? "barrier.cluster.wait.aligned" : "barrier.cluster.wait", {});
        return success();
      })
      .Case([&](NVVM::WgmmaFenceAlignedOp) {
        emit("wgmma.fence.sync.aligned", {});
        return success();
      })
      .Case([&](NVVM::WgmmaGroupSyncAlignedOp) {
        emit("wgmma.commit_group.sync.aligned", {});
        return success();
      })
      .Case([&](NVVM::WgmmaWaitGroupSyncOp o) {
        emit("wgmma.wait_group.sync.aligned", {std::to_string(o.getGroup())});
        return success();
      })
      .Default([&](Operation *o) -> LogicalResult {
        StringRef name = o->getName().getStringRef();
        if (name.consume_front("nvvm.read.ptx.sreg.")) {
          static const llvm::StringSet<> known = {
              "tid.x",   "tid.y",   "tid.z",    "ntid.x",   "ntid.y",   "ntid.z", "ctaid.x",
              "ctaid.y", "ctaid.z", "nctaid.x", "nctaid.y", "nctaid.z", "laneid"};
          if (known.contains(name)) {
            Reg r = fresh(RC::B32);
            emit("mov.u32", {r, ("%" + name).str()});
            vals[o->getResult(0)] = {r};
            return success();
          }
        }
        return fail(o, "no template for this op");
      });
}

LogicalResult KernelPrinter::print(llvm::raw_ostream &os) {
  if (!func->hasAttr(NVVM::NVVMDialect::getKernelFuncAttrName()))
    return func.emitOpError()
           << "has no PTX template: a device function (only kernels are printed)";
  findReadOnlyParams();
  if (failed(findNeeded()))
    return failure();
  StringRef name = func.getSymName();
  Block &entry = func.getBody().front();

  // Parameters.
  std::string params;
  llvm::raw_string_ostream ps(params);
  for (auto [i, arg] : llvm::enumerate(entry.getArguments())) {
    std::string pname = (name + "_param_" + Twine(i)).str();
    Type t = arg.getType();
    if (isPtr(arg)) {
      ps << (i ? ",\n" : "") << "\t.param .u64 .ptr";
      if (auto align = func.getArgAttrOfType<IntegerAttr>(i, LLVM::LLVMDialect::getAlignAttrName()))
        ps << " .align " << align.getInt();
      ps << " " << pname;
      Reg r = fresh(RC::B64);
      emit("ld.param.b64", {r, ("[" + pname + "]")});
      if (cast<LLVM::LLVMPointerType>(t).getAddressSpace() == 0) {
        Reg g = fresh(RC::B64);
        emit("cvta.to.global.u64", {g, r});
        r = g;
      }
      ptrs[arg] = Ptr{r, 0, Space::Global, static_cast<int>(i)};
      continue;
    }
    if (!isa<IntegerType, FloatType>(t) || t.isInteger(1))
      return func.emitOpError() << "has no PTX template: a kernel argument of type " << t;
    unsigned bits = bitsOf(t);
    unsigned w = bits < 16 ? 16 : bits;
    ps << (i ? ",\n" : "") << "\t.param ." << sfx('b', bits < 8 ? 8 : bits) << " " << pname;
    Reg r = fresh(t);
    emit(("ld.param." + (bits == 8 ? std::string("u8") : sfx('b', w))), {r, ("[" + pname + "]")});
    vals[arg] = {r};
  }

  // A loop header (a few pure ops and a conditional branch) is printed in
  // place of each branch into it rather than once: loops come out tested
  // at the bottom, as LLVM and tinygrad write them and as ptxas expects to
  // unroll them.
  unsigned order = 0;
  for (Block &b : func.getBody())
    position[&b] = order++;
  for (Block &b : func.getBody())
    if (copiedIntoBranches(&b))
      copiedHeaders.insert(&b);

  // ptxas unrolls a loop again unless told not to where it starts.
  for (Block &b : func.getBody())
    if (Block *head = noUnrollHead(&b))
      noUnrollHeads.insert(head);

  // Labels and block-argument registers, before any branch refers to them.
  unsigned nextLabel = 0;
  for (Block &b : func.getBody()) {
    labels[&b] = nextLabel++;
    if (b.isEntryBlock())
      continue;
    for (BlockArgument arg : b.getArguments()) {
      if (isPtr(arg)) {
        // A pointer carried from a parameter holds a global address, and
        // its loads may take the parameter's read-only path.
        Space space = typeSpace(arg.getType());
        int param = space == Space::Shared ? -1 : carriedParam(arg);
        ptrs[arg] = Ptr{fresh(RC::B64), 0, param >= 0 ? Space::Global : space, param};
        continue;
      }
      SmallVector<Type> types;
      if (failed(laneTypes(arg.getType(), types)))
        return func.emitOpError() << "has no PTX template: a block argument of type "
                                  << arg.getType();
      SmallVector<Reg, 4> regs;
      for (Type t : types)
        regs.push_back(fresh(t));
      vals[arg] = std::move(regs);
    }
  }

  for (Block &b : func.getBody()) {
    if (copiedHeaders.contains(&b))
      continue;
    next = b.getNextNode();
    while (next && copiedHeaders.contains(next))
      next = next->getNextNode();
    if (!b.isEntryBlock())
      body << "$L__BB0_" << labels[&b] << ":\n";
    if (noUnrollHeads.contains(&b))
      body << "\t.pragma \"nounroll\";\n";
    for (Operation &op : b)
      if (failed(printOp(&op)))
        return failure();
  }

  // The entry: signature, launch bounds, registers, body.
  os << "\t// .globl\t" << name << "\n.visible .entry " << name << "(\n" << params << "\n)\n";
  if (auto maxntid = func->getAttrOfType<DenseI32ArrayAttr>("nvvm.maxntid")) {
    os << ".maxntid ";
    llvm::interleaveComma(maxntid.asArrayRef(), os);
    os << "\n";
  }
  if (auto reqntid = func->getAttrOfType<DenseI32ArrayAttr>("nvvm.reqntid")) {
    os << ".reqntid ";
    llvm::interleaveComma(reqntid.asArrayRef(), os);
    os << "\n";
  }
  if (auto cluster =
          func->getAttrOfType<DenseI32ArrayAttr>(NVVM::NVVMDialect::getClusterDimAttrName())) {
    os << ".explicitcluster\n.reqnctapercluster ";
    llvm::interleaveComma(cluster.asArrayRef(), os);
    os << "\n";
  }
  os << "{\n";
  static const char *decl[] = {".pred", ".b16", ".b32", ".b64"};
  static const char *prefix[] = {"%p", "%rs", "%r", "%rd"};
  for (int i = 0; i < 4; ++i)
    if (counts[i])
      os << "\t.reg " << decl[i] << " \t" << prefix[i] << "<" << counts[i] + 1 << ">;\n";
  os << "\n" << bodyText << "\n}\n";
  return success();
}

LogicalResult mlir::uop::printPTX(gpu::GPUModuleOp module, SmallVectorImpl<char> &out) {
  ArrayAttr targets = module.getTargetsAttr();
  auto target = targets && targets.size() == 1 ? dyn_cast<NVVM::NVVMTargetAttr>(targets[0])
                                               : NVVM::NVVMTargetAttr();
  if (!target)
    return module.emitOpError() << "needs exactly one #nvvm.target to be printed as PTX";
  StringRef chip = target.getChip();
  unsigned ptxVersion = 0;
  SmallVector<StringRef> features;
  target.getFeatures().split(features, ',', -1, false);
  for (StringRef f : features)
    if (f.consume_front("+ptx"))
      (void)f.getAsInteger(10, ptxVersion);
  if (ptxVersion == 0)
    return module.emitOpError() << "needs a +ptxNN feature in its #nvvm.target to be printed as "
                                   "PTX (features: \""
                                << target.getFeatures() << "\")";
  llvm::raw_svector_ostream os(out);
  os << "//\n// Generated by uop-mlir's PTX printer\n//\n\n.version " << ptxVersion / 10 << "."
     << ptxVersion % 10 << "\n.target " << chip << "\n.address_size 64\n\n";
  DataLayout layout(module);
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    if (global.getAddrSpace() != 3 || global.getValueOrNull() ||
        !global.getInitializerRegion().empty())
      return global.emitOpError() << "has no PTX template: only uninitialized shared "
                                     "(addr_space = 3) globals are printed";
    uint64_t align =
        global.getAlignment().value_or(layout.getTypeABIAlignment(global.getGlobalType()));
    if (global.getLinkage() == LLVM::Linkage::External) // dynamic shared memory
      os << "\t.extern .shared .align " << align << " .b8 " << global.getSymName() << "[];\n";
    else
      os << "\t.shared .align " << align << " .b8 " << global.getSymName() << "["
         << layout.getTypeSize(global.getGlobalType()) << "];\n";
  }
  for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
    if (func.isExternal())
      continue;
    KernelPrinter printer(func, chip, layout);
    if (failed(printer.print(os)))
      return failure();
  }
  return success();
}

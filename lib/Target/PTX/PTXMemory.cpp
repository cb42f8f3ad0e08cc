//===- PTXMemory.cpp - the PTX printer's memory templates --------------===//
//
// Address arithmetic (getelementptr), loads and stores: the state space
// and offset folded into the address, vectors as v2/v4 accesses.
//
//===----------------------------------------------------------------------===//

#include "KernelPrinter.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::uop::ptx;

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

FailureOr<GEPPlan> KernelPrinter::planGEP(LLVM::GEPOp op) {
  GEPPlan plan;
  Type type = op.getElemType();
  bool first = true;
  for (auto index : op.getIndices()) {
    int64_t stride;
    Type nextType = type;
    if (first) {
      stride = layout.getTypeSize(type);
    } else if (auto array = dyn_cast<LLVM::LLVMArrayType>(type)) {
      nextType = array.getElementType();
      stride = layout.getTypeSize(nextType);
    } else if (auto vec = dyn_cast<VectorType>(type)) {
      nextType = vec.getElementType();
      stride = layout.getTypeSize(nextType);
    } else if (auto st = dyn_cast<LLVM::LLVMStructType>(type)) {
      auto c = dyn_cast<IntegerAttr>(index);
      if (!c)
        return fail(op, "a dynamic index into a struct");
      unsigned field = c.getInt();
      uint64_t offset = 0;
      for (unsigned i = 0; i <= field; ++i) {
        Type f = st.getBody()[i];
        if (!st.isPacked())
          offset = llvm::alignTo(offset, layout.getTypeABIAlignment(f));
        if (i < field)
          offset += layout.getTypeSize(f);
      }
      plan.offset += offset;
      type = st.getBody()[field];
      first = false;
      continue;
    } else {
      return fail(op, "an index into this type");
    }
    first = false;
    type = nextType;
    if (auto c = dyn_cast<IntegerAttr>(index)) {
      std::optional<int64_t> off = llvm::checkedMulAdd(c.getInt(), stride, plan.offset);
      if (!off)
        return fail(op, "a constant offset beyond 64 bits");
      plan.offset = *off;
      continue;
    }
    Value v = cast<Value>(index);
    unsigned bits = bitsOf(v.getType());
    if (bits != 32 && bits != 64)
      return fail(op, "an index that is neither i32 nor i64");
    // The constant terms of the index go into the offset, so that the
    // accesses at x, x + 1, x + 2 share one address ([%rd+4], [%rd+8]).
    // sext(x + c) is sext(x) + c only where the add cannot wrap (nsw); a
    // 64-bit index wraps as the address does.
    for (APInt c; auto add = v.getDefiningOp<LLVM::AddOp>();) {
      if (bits != 64 &&
          !bitEnumContainsAll(add.getOverflowFlags(), LLVM::IntegerOverflowFlags::nsw))
        break;
      Value rest;
      if (matchPattern(add.getRhs(), m_ConstantInt(&c)))
        rest = add.getLhs();
      else if (matchPattern(add.getLhs(), m_ConstantInt(&c)))
        rest = add.getRhs();
      else
        break;
      std::optional<int64_t> off = llvm::checkedMulAdd(c.getSExtValue(), stride, plan.offset);
      if (!off)
        break;
      plan.offset = *off;
      v = rest;
    }
    plan.scaled.push_back({v, stride});
  }
  return plan;
}

LogicalResult KernelPrinter::printGEP(LLVM::GEPOp op) {
  FailureOr<GEPPlan> plan = planGEP(op);
  if (failed(plan))
    return failure();
  Ptr p = ptrs.lookup(op.getBase());
  std::optional<int64_t> off = llvm::checkedAdd(p.off, plan->offset);
  if (!off)
    return fail(op, "a constant offset beyond 64 bits");
  p.off = *off;
  for (auto [v, stride] : plan->scaled) {
    Reg scaled = fresh(RC::B64);
    emit(bitsOf(v.getType()) == 32 ? "mul.wide.s32" : "mul.lo.s64",
         {scaled, scalar(v), std::to_string(stride)});
    Reg sum = fresh(RC::B64);
    emit("add.s64", {sum, p.reg, scaled});
    p.reg = sum;
  }
  ptrs[op.getResult()] = p;
  return success();
}

const char *mlir::uop::ptx::spaceName(Space s) {
  return s == Space::Global    ? ".global"
         : s == Space::Shared  ? ".shared"
         : s == Space::Cluster ? ".shared::cluster"
                               : "";
}

namespace {
/// How `n` lanes of `bits` each go to or from memory: `lanesPer` lanes per
/// element (lanes narrower than 32 bits are packed into .b32 words when
/// there are more than 4 of them: one access moves at most 4 elements), and
/// the accesses, each (first element, count) a v1, v2 or v4 within the
/// alignment.
struct Accesses {
  unsigned lanesPer, elemBits;
  SmallVector<std::pair<unsigned, unsigned>> groups;

  /// ".v4.b32", ".u8".
  std::string opcodeSuffix(unsigned count) const {
    return (count > 1 ? ".v" + std::to_string(count) : std::string()) + "." +
           (elemBits == 8 ? std::string("u8") : sfx('b', elemBits));
  }
};

Accesses planAccesses(unsigned bits, unsigned n, uint64_t bytes, uint64_t align) {
  Accesses a;
  a.lanesPer =
      (bits < 32 && n > 4 && n % (32 / bits) == 0 && bytes % 4 == 0 && align >= 4) ? 32 / bits : 1;
  a.elemBits = bits * a.lanesPer;
  unsigned elems = n / a.lanesPer;
  uint64_t maxVec = std::min<uint64_t>(
      4, std::max<uint64_t>(1, std::min<uint64_t>(align, 16) / (a.elemBits / 8)));
  for (unsigned e = 0; e < elems;) {
    unsigned v = 1;
    while (v * 2 <= maxVec && e + v * 2 <= elems)
      v *= 2;
    a.groups.push_back({e, v});
    e += v;
  }
  return a;
}

/// "{%r1, %r2}", or "%r1" for one register.
std::string regList(ArrayRef<Reg> regs) {
  std::string s;
  llvm::raw_string_ostream os(s);
  if (regs.size() > 1)
    os << "{";
  for (auto [i, r] : llvm::enumerate(regs))
    os << (i ? ", " : "") << r;
  if (regs.size() > 1)
    os << "}";
  return s;
}
} // namespace

LogicalResult KernelPrinter::printLoad(LLVM::LoadOp op) {
  if (op.getVolatile_() || op.getOrdering() != LLVM::AtomicOrdering::not_atomic)
    return fail(op, "a volatile or atomic load");
  Ptr p = ptrs.lookup(op.getAddr());
  p.space = spaceOfType(op.getAddr().getType(), p);
  if (isPtr(op.getResult())) {
    std::string addr = memOperand(p);
    Reg d = fresh(RC::B64);
    emit(("ld" + std::string(spaceName(p.space)) + ".b64"), {d, addr});
    ptrs[op.getResult()] = Ptr{d, 0, typeSpace(op.getType()), -1};
    return success();
  }
  SmallVector<Type> types;
  if (failed(laneTypes(op.getType(), types)) || isa<LLVM::LLVMStructType>(op.getType()))
    return fail(op, "a load of this type");
  unsigned bits = bitsOf(types[0]), n = types.size();
  uint64_t bytes = layout.getTypeSize(op.getType());
  uint64_t align =
      op.getAlignment() ? *op.getAlignment() : layout.getTypeABIAlignment(op.getType());
  bool nc = p.space == Space::Global && p.param >= 0 && readOnly[p.param] && noAlias[p.param];
  std::string prefix = "ld" + std::string(spaceName(p.space)) + (nc ? ".nc" : "");
  SmallVector<Reg, 4> out;
  if (bits == 1) {
    if (n != 1)
      return fail(op, "a load of a vector of i1");
    std::string addr = memOperand(p);
    Reg b = fresh(RC::B16), m = fresh(RC::B16), d = fresh(RC::Pred);
    emit(prefix + ".u8", {b, addr});
    emit("and.b16", {m, b, "1"});
    emit("setp.ne.b16", {d, m, "0"});
    vals[op.getResult()] = {d};
    return success();
  }
  Accesses plan = planAccesses(bits, n, bytes, align);
  for (auto [first, count] : plan.groups) {
    Ptr at = p;
    at.off += first * plan.elemBits / 8;
    SmallVector<Reg, 4> words;
    for (unsigned i = 0; i < count; ++i)
      words.push_back(fresh(
          plan.elemBits == 8 ? RC::B16 : rcOf(IntegerType::get(op.getContext(), plan.elemBits))));
    body << "\t" << prefix << plan.opcodeSuffix(count) << " " << regList(words) << ", "
         << memOperand(at) << ";\n";
    for (Reg w : words) {
      if (plan.lanesPer == 1) {
        out.push_back(w);
        continue;
      }
      if (bits == 16) {
        Reg lo = fresh(RC::B16), hi = fresh(RC::B16);
        body << "\tmov.b32 {" << lo << ", " << hi << "}, " << w << ";\n";
        out.append({lo, hi});
        continue;
      }
      // Bytes: each in its own .b16 (upper byte unspecified).
      Reg lo = fresh(RC::B16), hi = fresh(RC::B16), b1 = fresh(RC::B16), b3 = fresh(RC::B16);
      body << "\tmov.b32 {" << lo << ", " << hi << "}, " << w << ";\n";
      emit("shr.u16", {b1, lo, "8"});
      emit("shr.u16", {b3, hi, "8"});
      out.append({lo, b1, hi, b3});
    }
  }
  vals[op.getResult()] = std::move(out);
  return success();
}

LogicalResult KernelPrinter::printStore(LLVM::StoreOp op) {
  if (op.getVolatile_() || op.getOrdering() != LLVM::AtomicOrdering::not_atomic)
    return fail(op, "a volatile or atomic store");
  Ptr p = ptrs.lookup(op.getAddr());
  p.space = spaceOfType(op.getAddr().getType(), p);
  std::string prefix = "st" + std::string(spaceName(p.space));
  Value value = op.getValue();
  if (isPtr(value)) {
    Reg r = address(ptrs.lookup(value), typeSpace(value.getType()));
    emit(prefix + ".b64", {memOperand(p), r});
    return success();
  }
  SmallVector<Type> types;
  if (failed(laneTypes(value.getType(), types)) || isa<LLVM::LLVMStructType>(value.getType()))
    return fail(op, "a store of this type");
  ArrayRef<Reg> in = lanes(value);
  unsigned bits = bitsOf(types[0]), n = types.size();
  uint64_t bytes = layout.getTypeSize(value.getType());
  uint64_t align =
      op.getAlignment() ? *op.getAlignment() : layout.getTypeABIAlignment(value.getType());
  if (bits == 1) {
    if (n != 1)
      return fail(op, "a store of a vector of i1");
    Reg b = fresh(RC::B16);
    emit("selp.u16", {b, "1", "0", in[0]});
    emit(prefix + ".u8", {memOperand(p), b});
    return success();
  }
  Accesses plan = planAccesses(bits, n, bytes, align);
  SmallVector<Reg, 4> words;
  if (plan.lanesPer == 1) {
    words.assign(in.begin(), in.end());
  } else {
    for (unsigned i = 0; i < n; i += plan.lanesPer) {
      Reg w = fresh(RC::B32);
      if (bits == 16) {
        body << "\tmov.b32 " << w << ", {" << in[i] << ", " << in[i + 1] << "};\n";
      } else { // bytes: (b0 & 255) | b1 << 8 in each half
        Reg half[2];
        for (unsigned h = 0; h < 2; ++h) {
          Reg lo = fresh(RC::B16), sh = fresh(RC::B16), hv = fresh(RC::B16);
          emit("and.b16", {lo, in[i + 2 * h], "255"});
          emit("shl.b16", {sh, in[i + 2 * h + 1], "8"});
          emit("or.b16", {hv, lo, sh});
          half[h] = hv;
        }
        body << "\tmov.b32 " << w << ", {" << half[0] << ", " << half[1] << "};\n";
      }
      words.push_back(w);
    }
  }
  for (auto [first, count] : plan.groups) {
    Ptr at = p;
    at.off += first * plan.elemBits / 8;
    body << "\t" << prefix << plan.opcodeSuffix(count) << " " << memOperand(at) << ", "
         << regList(ArrayRef<Reg>(words).slice(first, count)) << ";\n";
  }
  return success();
}

//===- KernelEmitter.cpp - place a lowered kernel's ops in loops ----------===//
//
// A lowered kernel is a DAG whose RANGEs say which loop each op belongs to
// but not where the loops are. This places them, as tinygrad's linearizer
// does: every op goes to the innermost loop among the ranges it depends on
// (so loop-invariant work is hoisted by construction), each STORE opens the
// loops of its ranges (the SINK's STOREs over the same ranges share them),
// and each REDUCE opens loops over its own ranges with
// the accumulator as an scf.for iter_arg (REDUCEs over the same ranges that
// do not depend on each other share the loops). Value semantics live in
// Semantics.cpp.
//
//===----------------------------------------------------------------------===//

#include "uop/Conversion/Common/KernelEmitter.h"
#include "uop/Dialect/UOp/IR/UOpDialect.h"
#include "uop/Dialect/UOp/IR/UOpRanges.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::uop;

namespace {

/// The RANGEs an op's value depends on and that are not bound by a REDUCE
/// on the way: the loops it must be inside of.
using RangeSet = llvm::SmallSetVector<Operation *, 4>;

class KernelEmitter {
public:
  KernelEmitter(KernelOp kernel, Block *entry, const TargetInfo &target, StringRef passName)
      : kernel(kernel), entry(entry), target(target), types(target.types), passName(passName),
        b(kernel.getContext()) {
    // The arguments after the buffers, looked up by each DEFINE_VAR and
    // TENSOR_COPY: laid out once rather than per op.
    int64_t arg = countBuffers(kernel);
    for (DefineVarOp v : kernelVariables(kernel))
      extraArgs[v.getNameAttr()] = arg++;
    for (TensorMapAttr map : kernelTensorMaps(kernel))
      extraArgs[map] = arg++;
  }

  LogicalResult run() {
    collectFreeRanges();
    stack.push_back(
        Scope{nullptr, Value(), entry->getTerminator(), nullptr, DenseMap<Value, Value>()});
    for (Value root : kernel.getSink().getOperands())
      if (failed(emitRoot(root)))
        return failure();
    return success();
  }

private:
  /// One open loop (or the function body at the bottom of the stack). New
  /// ops of this level go right before `anchor`: the loop of the level above
  /// while it is open, else the terminator.
  struct Scope {
    Operation *range;
    Value iv;
    Operation *anchor;
    Operation *parentAnchor; // restored on the level below when this closes
    DenseMap<Value, Value> values;
  };

  void collectFreeRanges() {
    for (Operation &op : kernel.getBodyBlock()) {
      RangeSet set;
      for (Value operand : op.getOperands())
        if (Operation *def = operand.getDefiningOp())
          set.insert(free[def].begin(), free[def].end());
      if (isa<RangeOp>(op))
        set.insert(&op);
      if (auto reduce = dyn_cast<ReduceOp>(op))
        for (Value r : reduce.getRanges())
          set.remove(r.getDefiningOp());
      // A STORE runs inside the loops of its ranges and closes them: what
      // waits for it (a BARRIER) is outside them. (tinygrad keeps a loop
      // open around a shared-memory store whose value, not address, uses
      // it; uop-optimize does not make such kernels: it groups only a
      // kernel's one reduce.)
      if (isa<StoreOp>(op)) {
        loopsOf[&op] = std::move(set);
        set.clear();
      }
      free[&op] = std::move(set);
    }
  }

  /// The deepest open level among the loops of `op`'s ranges, or -1 (with
  /// the range in `missing`) when one is not open.
  int levelOf(Operation *op, Operation *&missing) {
    int level = 0;
    for (Operation *r : free[op]) {
      int found = -1;
      for (int i = stack.size() - 1; i > 0 && found < 0; --i)
        if (stack[i].range == r)
          found = i;
      if (found < 0) {
        missing = r;
        return -1;
      }
      level = std::max(level, found);
    }
    return level;
  }

  OpBuilder &at() {
    b.setInsertionPoint(stack.back().anchor);
    return b;
  }

  /// Opens `scf.for %iv = 0 to end` on top of the stack, with `init` as its
  /// iter_args; the body yields them back until the caller changes that.
  scf::ForOp pushLoop(Operation *range, Value end, ValueRange init) {
    Location loc = range->getLoc();
    OpBuilder &ob = at();
    Value zero = arith::ConstantOp::create(ob, loc, b.getIntegerAttr(end.getType(), 0));
    Value one = arith::ConstantOp::create(ob, loc, b.getIntegerAttr(end.getType(), 1));
    auto loop = scf::ForOp::create(ob, loc, zero, end, one, init,
                                   [](OpBuilder &nb, Location l, Value, ValueRange args) {
                                     scf::YieldOp::create(nb, l, args);
                                   });
    Operation *parentAnchor = stack.back().anchor;
    stack.back().anchor = loop;
    stack.push_back(Scope{range, loop.getInductionVar(), loop.getBody()->getTerminator(),
                          parentAnchor, DenseMap<Value, Value>()});
    return loop;
  }

  void popLoop() {
    Operation *parentAnchor = stack.back().parentAnchor;
    stack.pop_back();
    stack.back().anchor = parentAnchor;
  }

  /// Ranges in loop order: by axis number, as tinygrad nests them.
  static SmallVector<RangeOp> sorted(ArrayRef<Operation *> ranges) {
    SmallVector<RangeOp> out;
    for (Operation *r : ranges)
      out.push_back(cast<RangeOp>(r));
    llvm::sort(out, [](RangeOp x, RangeOp y) { return x.getAxis() < y.getAxis(); });
    return out;
  }

  /// Opens a loop per range, by axis number. Each loop carries the
  /// accumulators: the outermost starts from `accs`, each inner one from the
  /// iter_args of the loop around it.
  FailureOr<SmallVector<scf::ForOp>> pushLoops(ArrayRef<Operation *> ranges, ValueRange accs) {
    SmallVector<scf::ForOp> loops;
    for (RangeOp r : sorted(ranges)) {
      FailureOr<Value> end = emit(r.getEnd());
      if (failed(end))
        return failure();
      loops.push_back(pushLoop(r, *end, accs));
      accs = loops.back().getRegionIterArgs();
    }
    return loops;
  }

  void popLoopsTo(size_t depth) {
    while (stack.size() > depth)
      popLoop();
  }

  /// A root of the SINK (a STORE, or an op that needs no loops).
  LogicalResult emitRoot(Value root) { return emit(root); }

  /// A STORE inside the loops of all its ranges, once; the SINK's other
  /// STOREs over the same loops go in them too (one loop per RANGE, as in
  /// tinygrad's linearizer, e.g. the copies uop-expand makes of a store).
  FailureOr<Value> emitStoreInLoops(StoreOp store) {
    if (!effectsDone.insert(store).second)
      return Value();
    size_t depth = stack.size();
    const RangeSet &loops = loopsOf[store];
    if (failed(pushLoops(loops.getArrayRef(), ValueRange())))
      return failure();
    FailureOr<Value> done = emitStore(store);
    for (Value root : kernel.getSink().getOperands()) {
      auto other = root.getDefiningOp<StoreOp>();
      if (succeeded(done) && other && !loops.empty() && sameSet(loopsOf[other], loops) &&
          effectsDone.insert(other).second)
        done = emitStore(other);
    }
    popLoopsTo(depth);
    return done;
  }

  /// The converted value of `v`, emitted once per level where it is needed.
  FailureOr<Value> emit(Value v) {
    for (Scope &s : llvm::reverse(stack))
      if (Value known = s.values.lookup(v))
        return known;
    Operation *op = v.getDefiningOp();
    if (!op)
      return emitError(kernel.getLoc()) << "block arguments are not supported";
    if (auto range = dyn_cast<RangeOp>(op)) {
      for (Scope &s : llvm::reverse(stack))
        if (s.range == op)
          return s.iv;
      return op->emitOpError() << "(axis " << range.getAxis()
                               << ") is used outside of its loop: the store or reduce that "
                                  "uses it does not range over it";
    }
    Operation *missing = nullptr;
    int level = levelOf(op, missing);
    if (level < 0)
      return op->emitOpError() << "uses range axis " << cast<RangeOp>(missing).getAxis()
                               << " outside of any store or reduce over it";
    // Emit at `level`: close the deeper loops for now, reopen them after.
    SmallVector<Scope> deeper(std::make_move_iterator(stack.begin() + level + 1),
                              std::make_move_iterator(stack.end()));
    stack.truncate(level + 1);
    FailureOr<Value> result = emitOp(op, v);
    stack.append(std::make_move_iterator(deeper.begin()), std::make_move_iterator(deeper.end()));
    if (succeeded(result) && *result)
      stack[level].values[v] = *result;
    return result;
  }

  FailureOr<SmallVector<Value>> emitAll(ValueRange vs) {
    SmallVector<Value> out;
    for (Value v : vs) {
      FailureOr<Value> c = emit(v);
      if (failed(c))
        return failure();
      out.push_back(*c);
    }
    return out;
  }

  /// Emits `op` on the top level of the stack.
  FailureOr<Value> emitOp(Operation *op, Value v) {
    for (Type t : op->getResultTypes())
      if (isDType(t))
        if (failed(types.checkSupported(t, op)))
          return failure();
    if (auto g = dyn_cast<DefineGlobalOp>(op))
      return entry->getArgument(g.getIndex());
    if (auto var = dyn_cast<DefineVarOp>(op)) {
      return extraArgument(var, var.getNameAttr());
    }
    if (auto index = dyn_cast<IndexOp>(op))
      return emitIndex(index);
    if (auto load = dyn_cast<LoadOp>(op))
      return emitLoad(load);
    if (auto store = dyn_cast<StoreOp>(op))
      return emitStoreInLoops(store);
    // Effects without a value are emitted once, where their ranges are.
    if (isa<BarrierOp, AsyncCopyOp, AsyncCommitOp, AsyncWaitOp, WgmmaFenceOp, WgmmaCommitOp,
            FenceProxyAsyncOp, MBarrierInitOp, MBarrierExpectTxOp, MBarrierWaitOp, TensorCopyOp>(
            op) &&
        !effectsDone.insert(op).second)
      return Value();
    if (auto init = dyn_cast<MBarrierInitOp>(op))
      return emitGated(op, init.getBar(), {});
    if (auto expect = dyn_cast<MBarrierExpectTxOp>(op))
      return emitGated(op, expect.getBar(), {});
    if (auto copy = dyn_cast<TensorCopyOp>(op))
      return emitTensorCopy(copy);
    if (auto reduce = dyn_cast<ReduceOp>(op))
      return emitReduce(reduce);
    if (auto copy = dyn_cast<AsyncCopyOp>(op))
      return emitAsyncCopy(copy);
    if (isa<ViewOp, ValidOp, ReduceAxisOp, ShapedConstOp, CopyTileOp>(op))
      return op->emitOpError() << "is not lowered: run uop-lower first";
    if (auto map = dyn_cast<ClusterMapOp>(op)) {
      if (!map.getRank())
        return op->emitOpError() << "is not lowered: run uop-lower first";
      FailureOr<SmallVector<Value>> operands = emitAll(op->getOperands());
      if (failed(operands))
        return failure();
      return target.emitPeerAddress(op, (*operands)[0], (*operands)[1], at());
    }
    FailureOr<SmallVector<Value>> operands = emitAll(op->getOperands());
    if (failed(operands))
      return failure();
    if (std::optional<FailureOr<Value>> r = target.emitTargetOp(op, *operands, at()))
      return *r;
    Semantics sem(at(), op->getLoc(), target);
    if (Value r = sem.emit(op, *operands))
      return r;
    InFlightDiagnostic d = op->emitOpError() << "is not supported by " << passName;
    if (!sem.whyUnsupported().empty())
      d << ": " << sem.whyUnsupported();
    return d;
  }

  /// INDEX: the element's address (the gate is applied by its LOAD/STORE).
  FailureOr<Value> emitIndex(IndexOp index) {
    if (getVCount(index.getType()) != 1)
      return index.emitOpError() << "vectorized pointers are not supported by " << passName;
    FailureOr<Value> base = emit(index.getBuf()), idx = emit(index.getIdx());
    if (failed(base) || failed(idx))
      return failure();
    OpBuilder &ob = at();
    Location loc = index.getLoc();
    Value i = *idx;
    auto idxType = cast<IntegerType>(getScalarType(index.getIdx().getType()));
    if (idxType.isUnsigned() || idxType.getWidth() == 1) // GEP reads indices as signed
      i = arith::ExtUIOp::create(ob, loc, ob.getI64Type(), i);
    Type elem = types.storage(cast<PtrType>(index.getType()).getValueType());
    return LLVM::GEPOp::create(ob, loc, (*base).getType(), elem, *base, ValueRange{i}).getResult();
  }

  /// The address and gate of a LOAD/STORE pointer (an INDEX or a buffer).
  LogicalResult emitAddress(Value ptr, Value &addr, Value &gate) {
    FailureOr<Value> a = emit(ptr);
    if (failed(a))
      return failure();
    addr = *a;
    if (IndexOp index = getIndexOfPointer(ptr); index && index.getGate()) {
      FailureOr<Value> g = emit(index.getGate());
      if (failed(g))
        return failure();
      gate = *g;
    }
    return success();
  }

  /// The alignment of a LOAD/STORE of `t`: the element's for a vector where
  /// buffers are not known 16-byte aligned, else the type's own (0).
  unsigned alignment(Type t) {
    if (!isa<VectorType>(t) || target.buffersAligned())
      return 0;
    return (getScalarType(types.storage(t)).getIntOrFloatBitWidth() + 7) / 8;
  }

  /// LOAD; gated, the alt value (or 0) where the gate is off: `scf.if`, or
  /// a select where the target prefers one and the buffer's size allows.
  FailureOr<Value> emitLoad(LoadOp load) {
    for (Value dep : load.getDeps()) // what must happen first (a BARRIER)
      if (failed(emit(dep)))
        return failure();
    Value addr, gate, alt;
    if (failed(emitAddress(load.getPtr(), addr, gate)))
      return failure();
    if (gate && load.getAlt()) {
      FailureOr<Value> a = emit(load.getAlt());
      if (failed(a))
        return failure();
      alt = *a;
    }
    Type t = load.getType();
    Location loc = load.getLoc();
    auto read = [&](OpBuilder &ob) {
      Value raw = LLVM::LoadOp::create(ob, loc, types.storage(t), addr, alignment(t));
      return Semantics(ob, loc, target).fromStorage(raw, t);
    };
    OpBuilder &ob = at();
    if (!gate)
      return read(ob);
    if (!alt)
      alt = Semantics(ob, loc, target).zero(t);
    // Without a branch where the buffer's first elements can be read in its
    // place: the address is the buffer's start where the gate is off, and
    // the value there the alt.
    IndexOp index = getIndexOfPointer(load.getPtr());
    auto buf = index ? dyn_cast<PtrType>(index.getBuf().getType()) : PtrType();
    if (!target.branchesGatedLoads() && buf && buf.getSize() >= getVCount(t)) {
      FailureOr<Value> base = emit(index.getBuf());
      if (failed(base))
        return failure();
      OpBuilder &sb = at();
      addr = LLVM::SelectOp::create(sb, loc, gate, addr, *base);
      return arith::SelectOp::create(sb, loc, gate, read(sb), alt).getResult();
    }
    auto ifOp = scf::IfOp::create(ob, loc, TypeRange{types.compute(t)}, gate,
                                  /*addThenBlock=*/true, /*addElseBlock=*/true);
    OpBuilder tb = ifOp.getThenBodyBuilder(), eb = ifOp.getElseBodyBuilder();
    scf::YieldOp::create(tb, loc, read(tb));
    scf::YieldOp::create(eb, loc, alt);
    return ifOp.getResult(0);
  }

  /// The argument after the buffers that `key` (a variable's name, a
  /// tensor map) was given.
  FailureOr<Value> extraArgument(Operation *op, Attribute key) {
    auto it = extraArgs.find(key);
    if (it == extraArgs.end() || it->second >= entry->getNumArguments())
      return op->emitOpError() << "has no argument in the function " << passName << " made";
    return entry->getArgument(it->second);
  }

  /// ASYNC_COPY, behind `scf.if` where its source is gated off (the
  /// target's instruction copies unconditionally).
  FailureOr<Value> emitAsyncCopy(AsyncCopyOp copy) {
    if (IndexOp dst = getIndexOfPointer(copy.getDst()); dst && dst.getGate())
      return copy.emitOpError() << "copies into a gated INDEX";
    return emitGated(copy, copy.getSrc(), {});
  }

  /// An op only the threads where the INDEX `gated` is gated on execute
  /// (one thread, for the TMA's copies and mbarrier ops): behind `scf.if`.
  /// The target's op gets the op's operands but its deps (emitted first:
  /// what must happen before), then `extra`.
  FailureOr<Value> emitGated(Operation *op, Value gated, ArrayRef<Value> extra) {
    for (Value dep : op->getOperands())
      if (isa<VoidType>(dep.getType()) && failed(emit(dep)))
        return failure();
    SmallVector<Value> operands;
    for (Value v : op->getOperands()) {
      if (isa<VoidType>(v.getType()))
        continue;
      FailureOr<Value> c = emit(v);
      if (failed(c))
        return failure();
      operands.push_back(*c);
    }
    llvm::append_range(operands, extra);
    OpBuilder &ob = at();
    OpBuilder inner = ob;
    if (IndexOp index = getIndexOfPointer(gated); index && index.getGate()) {
      FailureOr<Value> gate = emit(index.getGate());
      if (failed(gate))
        return failure();
      OpBuilder &gb = at();
      auto ifOp = scf::IfOp::create(gb, op->getLoc(), *gate, /*withElseRegion=*/false);
      inner = ifOp.getThenBodyBuilder();
    }
    std::optional<FailureOr<Value>> r = target.emitTargetOp(op, operands, inner);
    if (!r)
      return op->emitOpError() << "is not supported by " << passName;
    return *r;
  }

  /// TENSOR_COPY: its tensor map is the kernel's parameter after the
  /// buffers and variables, in kernelTensorMaps order.
  FailureOr<Value> emitTensorCopy(TensorCopyOp copy) {
    TensorMapAttr map = copy.getMapAttr();
    if (!map)
      return copy.emitOpError() << "is not lowered: run uop-lower first";
    FailureOr<Value> arg = extraArgument(copy, map);
    if (failed(arg))
      return failure();
    return emitGated(copy, copy.getSrc(), {*arg});
  }

  /// STORE, behind `scf.if` when gated. Its result (void) has no value.
  FailureOr<Value> emitStore(StoreOp store) {
    if (store.getUnder())
      return store.emitOpError() << "under an IF is not supported by " << passName;
    Value addr, gate;
    if (failed(emitAddress(store.getPtr(), addr, gate)))
      return failure();
    FailureOr<Value> value = emit(store.getValue());
    if (failed(value))
      return failure();
    if (store.getGate()) {
      FailureOr<Value> g = emit(store.getGate());
      if (failed(g))
        return failure();
      gate = gate ? arith::AndIOp::create(at(), store.getLoc(), gate, *g).getResult() : *g;
    }
    Type t = store.getValue().getType();
    Location loc = store.getLoc();
    auto write = [&](OpBuilder &ob) {
      Value raw = Semantics(ob, loc, target).toStorage(*value, t);
      LLVM::StoreOp::create(ob, loc, raw, addr, alignment(t));
    };
    OpBuilder &ob = at();
    if (!gate) {
      write(ob);
    } else {
      auto ifOp = scf::IfOp::create(ob, loc, gate, /*withElseRegion=*/false);
      OpBuilder tb = ifOp.getThenBodyBuilder();
      write(tb);
    }
    return Value();
  }

  /// REDUCE: nested loops over its ranges carrying the accumulator. REDUCEs
  /// over the same ranges at the same place that do not depend on each
  /// other share the loops, one accumulator each, as the RANGEs they share
  /// make one loop in tinygrad's linearizer.
  FailureOr<Value> emitReduce(ReduceOp reduce) {
    Location loc = reduce.getLoc();
    size_t depth = stack.size();
    SmallVector<ReduceOp> group = siblings(reduce);
    SmallVector<Operation *> rangeOps;
    for (Value r : reduce.getRanges())
      rangeOps.push_back(r.getDefiningOp());
    SmallVector<Value> inits;
    for (ReduceOp r : group)
      inits.push_back(Semantics(at(), loc, target).identity(r.getKind(), r.getType()));
    FailureOr<SmallVector<scf::ForOp>> loops = pushLoops(rangeOps, inits);
    if (failed(loops))
      return failure();
    SmallVector<Value> next;
    for (auto [i, r] : llvm::enumerate(group)) {
      Value acc = loops->back().getRegionIterArg(i);
      FailureOr<Value> n = accumulateIntoWmma(r, acc);
      if (succeeded(n) && !*n)
        n = accumulate(r, acc);
      if (failed(n))
        return failure();
      next.push_back(*n);
    }
    ValueRange results = next;
    for (scf::ForOp loop : llvm::reverse(*loops)) {
      loop.getBody()->getTerminator()->setOperands(results);
      results = loop.getResults();
    }
    popLoopsTo(depth);
    // The others' values belong to this level too.
    for (auto [r, v] : llvm::drop_begin(llvm::zip(group, results)))
      stack.back().values[r.getResult()] = v;
    return results.front();
  }

  /// One iteration of a REDUCE: `acc` combined with its source, or with
  /// each lane of it in order (a horizontal reduction).
  FailureOr<Value> accumulate(ReduceOp r, Value acc) {
    Value src = r.getSrc();
    if (src.getType() == r.getType())
      return accumulateExpr(r, acc, src);
    if (auto vec = src.getDefiningOp<VectorizeOp>()) {
      for (Value lane : vec.getOperands()) {
        FailureOr<Value> next = accumulateExpr(r, acc, lane);
        if (failed(next))
          return failure();
        acc = *next;
      }
      return acc;
    }
    if (MulOp mul = fusedProduct(r, src)) { // each lane's product fused
      FailureOr<Value> a = emit(mul.getLhs()), b = emit(mul.getRhs());
      if (failed(a) || failed(b))
        return failure();
      Semantics sem(at(), r.getLoc(), target);
      Type scalar = getScalarType(r.getType());
      for (int64_t i = 0; i < cast<VectorType>(a->getType()).getNumElements(); ++i)
        acc = sem.mulAdd(sem.extract(*a, i), sem.extract(*b, i), acc, scalar);
      return acc;
    }
    FailureOr<Value> x = emit(src);
    if (failed(x))
      return failure();
    return Semantics(at(), r.getLoc(), target).combineLanes(r.getKind(), acc, *x, r.getType());
  }

  /// The MUL `src` is if an ADD REDUCE fuses it into its sum (uop-fuse-mulacc's
  /// rule: tinygrad's accumulator is an ADD like any other).
  MulOp fusedProduct(ReduceOp r, Value src) {
    auto mul = src.getDefiningOp<MulOp>();
    return mul && r.getKind() == ReduceKind::add && target.attr.fusesProduct(src) ? mul : MulOp();
  }

  /// `acc` combined with the scalar `src`, as the target evaluates
  /// `acc op src`: with a fused product as MULACC, and on the host with an
  /// inline ADD (MUL) operand's parentheses stripped, as uop-c-expressions
  /// does (`acc + (y + z)` is `(acc + y) + z` in tinygrad's C).
  /// (A Semantics is made after the operands are emitted: at() is where
  /// the next op goes.)
  FailureOr<Value> accumulateExpr(ReduceOp r, Value acc, Value src) {
    if (MulOp mul = fusedProduct(r, src)) {
      FailureOr<Value> a = emit(mul.getLhs()), b = emit(mul.getRhs());
      if (failed(a) || failed(b))
        return failure();
      return Semantics(at(), r.getLoc(), target).mulAdd(*a, *b, acc, r.getType());
    }
    Operation *def = src.getDefiningOp();
    bool sameOp = (r.getKind() == ReduceKind::add && isa_and_nonnull<AddOp>(def)) ||
                  (r.getKind() == ReduceKind::mul && isa_and_nonnull<MulOp>(def));
    if (sameOp && target.attr.isHost() && src.hasOneUse() &&
        isa<FloatType>(getScalarType(src.getType()))) {
      FailureOr<Value> left = accumulateExpr(r, acc, def->getOperand(0));
      if (failed(left))
        return failure();
      return accumulateExpr(r, *left, def->getOperand(1));
    }
    FailureOr<Value> x = emit(src);
    if (failed(x))
      return failure();
    return Semantics(at(), r.getLoc(), target).combine(r.getKind(), acc, *x, r.getType());
  }

  /// `reduce` and the REDUCEs not emitted yet that can share its loops: the
  /// same ranges, the same loops around them, neither depending on another.
  SmallVector<ReduceOp> siblings(ReduceOp reduce) {
    SmallVector<ReduceOp> group{reduce};
    if (reduce.getRanges().empty())
      return group;
    for (ReduceOp other : kernel.getBodyBlock().getOps<ReduceOp>()) {
      if (other == reduce || !llvm::equal(other.getRanges(), reduce.getRanges()) ||
          !sameSet(free[other], free[reduce]) || isKnown(other.getResult()))
        continue;
      if (llvm::any_of(group, [&](ReduceOp r) {
            return dependsOn(other.getSrc(), r) || dependsOn(r.getSrc(), other);
          }))
        continue;
      group.push_back(other);
    }
    return group;
  }

  static bool sameSet(const RangeSet &x, const RangeSet &y) {
    return x.size() == y.size() && llvm::all_of(x, [&](Operation *r) { return y.contains(r); });
  }

  bool isKnown(Value v) {
    return llvm::any_of(stack, [&](Scope &s) { return s.values.count(v); });
  }

  /// Whether `v` is computed from `op`'s result.
  bool dependsOn(Value v, Operation *op) {
    SmallVector<Operation *> work;
    llvm::SmallPtrSet<Operation *, 32> seen;
    if (Operation *def = v.getDefiningOp())
      work.push_back(def);
    while (!work.empty()) {
      Operation *x = work.pop_back_val();
      if (x == op)
        return true;
      if (!seen.insert(x).second || x->isBeforeInBlock(op))
        continue; // (ops before `op` cannot use it)
      for (Value operand : x->getOperands())
        if (Operation *def = operand.getDefiningOp())
          work.push_back(def);
    }
    return false;
  }

  /// A sum of WMMA(a, b, 0) accumulates in the WMMA: WMMA(a, b, acc), as
  /// tinygrad's devectorizer rewrites acc + WMMA. Null when the reduce is
  /// not such a sum or the target does not convert WMMAs.
  FailureOr<Value> accumulateIntoWmma(ReduceOp reduce, Value acc) {
    auto wmma = reduce.getSrc().getDefiningOp<WmmaOp>();
    if (!wmma || reduce.getKind() != ReduceKind::add || !target.hasTensorCores() ||
        reduce.getType() != wmma.getType() || !matchPattern(wmma.getC(), m_AnyZeroFloat()))
      return Value();
    for (Value dep : wmma.getDeps()) // (the barrier that publishes a wgmma's tiles)
      if (failed(emit(dep)))
        return failure();
    FailureOr<Value> a = emit(wmma.getA()), b = emit(wmma.getB());
    if (failed(a) || failed(b))
      return failure();
    std::optional<FailureOr<Value>> r = target.emitTargetOp(wmma, ValueRange{*a, *b, acc}, at());
    return r ? *r : FailureOr<Value>(Value());
  }

  KernelOp kernel;
  Block *entry;
  const TargetInfo &target;
  const DTypeLowering &types;
  StringRef passName;
  OpBuilder b;
  DenseMap<Attribute, int64_t> extraArgs; // variable name or tensor map -> argument
  DenseMap<Operation *, RangeSet> free;
  DenseMap<Operation *, RangeSet> loopsOf; // of each STORE
  llvm::SmallPtrSet<Operation *, 8> effectsDone;
  SmallVector<Scope> stack;
};

} // namespace

int64_t mlir::uop::countBuffers(KernelOp kernel) {
  int64_t buffers = 0;
  for (DefineGlobalOp g : kernel.getBodyBlock().getOps<DefineGlobalOp>())
    buffers = std::max(buffers, static_cast<int64_t>(g.getIndex()) + 1);
  return buffers;
}

SmallVector<TensorMapAttr> mlir::uop::kernelTensorMaps(KernelOp kernel) {
  llvm::SetVector<TensorMapAttr> maps;
  for (TensorCopyOp copy : kernel.getBodyBlock().getOps<TensorCopyOp>())
    if (TensorMapAttr map = copy.getMapAttr())
      maps.insert(map);
  return maps.takeVector();
}

SmallVector<DefineVarOp> mlir::uop::kernelVariables(KernelOp kernel) {
  SmallVector<DefineVarOp> vars;
  for (DefineVarOp v : kernel.getBodyBlock().getOps<DefineVarOp>())
    if (llvm::none_of(vars, [&](DefineVarOp w) { return w.getName() == v.getName(); }))
      vars.push_back(v);
  llvm::sort(vars, [](DefineVarOp a, DefineVarOp b) { return a.getName() < b.getName(); });
  return vars;
}

void mlir::uop::recordKernelVariables(KernelOp kernel) {
  SmallVector<DefineVarOp> vars = kernelVariables(kernel);
  auto module = kernel->getParentOfType<ModuleOp>();
  if (vars.empty() || !module)
    return;
  MLIRContext *ctx = kernel.getContext();
  UOpDialect::VariablesAttrHelper helper(ctx);
  NamedAttrList all(helper.isAttrPresent(module) ? helper.getAttr(module) : DictionaryAttr());
  SmallVector<Attribute> names;
  for (DefineVarOp v : vars)
    names.push_back(v.getNameAttr());
  all.set(kernel.getSymName(), ArrayAttr::get(ctx, names));
  helper.setAttr(module, all.getDictionary(ctx));
}

LogicalResult mlir::uop::emitKernel(KernelOp kernel, Block *entry, const TargetInfo &target,
                                    StringRef passName) {
  RangeMemo ranges; // Semantics asks for index ranges; the kernel is not changed meanwhile
  if (failed(KernelEmitter(kernel, entry, target, passName).run()))
    return failure();
  // Constants are made where they are first needed; they belong at the top.
  SmallVector<arith::ConstantOp> constants;
  for (Operation &op : *entry)
    op.walk([&](arith::ConstantOp c) { constants.push_back(c); });
  for (arith::ConstantOp c : llvm::reverse(constants))
    c->moveBefore(&entry->front());
  return success();
}

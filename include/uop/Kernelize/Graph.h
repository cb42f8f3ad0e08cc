//===- Graph.h - tinygrad's tensor-level UOp graph, hash-consed -*- C++ -*-===//
//
// The graph kernelize works on: tinygrad's UOps at the tensor level (BUFFER,
// movement ops, ALU ops, REDUCE_AXIS, ASSIGN, ...) and the kernel ASTs it
// builds. tinygrad's scheduler depends on UOps being hash-consed (a UOp is
// its op, dtype, arg, sources and tag; building it twice gives the same
// object) and on the order its graph_rewrite visits them, so this is a
// faithful, interned copy of tinygrad's UOp rather than MLIR operations:
// kernelize imports the `uop` tensor-level IR into a Graph, runs tinygrad's
// rules, and emits the kernels and the schedule as IR again.
//
//===----------------------------------------------------------------------===//

#ifndef UOP_KERNELIZE_GRAPH_H
#define UOP_KERNELIZE_GRAPH_H

#include "uop/Dialect/UOp/IR/ShapeTracker.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Allocator.h"
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace mlir::uop::kernelize {

#define UOP_KERNELIZE_OPS(X)                                                                       \
  X(SINK)                                                                                          \
  X(UNIQUE)                                                                                        \
  X(DEVICE)                                                                                        \
  X(BUFFER) X(BUFFER_VIEW) X(CONST) X(DEFINE_VAR) X(BIND) X(VIEW) X(RESHAPE) X(PERMUTE) X(EXPAND)  \
      X(PAD) X(SHRINK) X(FLIP) X(REDUCE_AXIS) X(CONTIGUOUS) X(CONTIGUOUS_BACKWARD) X(DETACH)       \
          X(ASSIGN) X(COPY) X(CAST) X(BITCAST) X(FUSE) X(GBARRIER) X(KERNEL) X(DEFINE_GLOBAL)      \
              X(LOAD) X(STORE) X(VALID) X(MSELECT) X(MSTACK) X(MULTI) X(EXP2) X(LOG2) X(SIN)       \
                  X(SQRT) X(RECIP) X(NEG) X(ADD) X(MUL) X(IDIV) X(MAX) X(MOD) X(CMPLT) X(CMPNE)    \
                      X(CMPEQ) X(XOR) X(SHL) X(SHR) X(OR) X(AND) X(THREEFRY) X(SUB) X(FDIV) X(POW) \
                          X(WHERE) X(MULACC)

enum class Op : uint8_t {
#define UOP_KERNELIZE_ENUM(name) name,
  UOP_KERNELIZE_OPS(UOP_KERNELIZE_ENUM)
#undef UOP_KERNELIZE_ENUM
};
llvm::StringRef opName(Op op);
std::optional<Op> opFromName(llvm::StringRef name);

/// tinygrad's GroupOp sets.
bool isUnary(Op op);
bool isBinary(Op op);
bool isTernary(Op op);
inline bool isALU(Op op) { return isUnary(op) || isBinary(op) || isTernary(op); }
bool isMovement(Op op);
bool isUnsafePad(Op op);
bool isCommutative(Op op);
/// GroupOp.Buffer: ops whose shape comes from a VIEW source.
bool isBufferOp(Op op);
/// GroupOp.Meta: COPY and BUFFER_VIEW, kernels that are not a SINK.
inline bool isMeta(Op op) { return op == Op::COPY || op == Op::BUFFER_VIEW; }
/// ALWAYS_CONTIGUOUS in tinygrad's grouper.
bool isAlwaysContiguous(Op op);

enum class Scalar : uint8_t {
  Void,
  Bool,
  I8,
  U8,
  I16,
  U16,
  I32,
  U32,
  I64,
  U64,
  F16,
  BF16,
  F32,
  F64
};

/// A tinygrad dtype: a scalar, or a pointer to `ptrSize` scalars (the
/// DEFINE_GLOBALs of a kernel AST).
struct DType {
  Scalar scalar = Scalar::Void;
  int64_t ptrSize = -1;
  bool isPtr() const { return ptrSize >= 0; }
  DType base() const { return {scalar, -1}; }
  static DType ptr(Scalar s, int64_t size) { return {s, size}; }
  bool operator==(const DType &o) const { return scalar == o.scalar && ptrSize == o.ptrSize; }
  bool operator!=(const DType &o) const { return !(*this == o); }
};
llvm::StringRef scalarName(Scalar s);
std::optional<Scalar> scalarFromName(llvm::StringRef name);
int64_t itemSize(Scalar s);
bool isFloat(Scalar s);
bool isInt(Scalar s);
bool isUnsigned(Scalar s);

/// A constant as tinygrad's dtypes.as_const keeps it: a Python int, float or
/// bool (a float constant is not rounded to its dtype).
struct ConstValue {
  enum Kind : uint8_t { Int, Float, Bool } kind = Int;
  int64_t i = 0; // Int (u64 values above INT64_MAX wrap) and Bool
  double f = 0;
  static ConstValue ofInt(int64_t v) { return {Int, v, 0}; }
  static ConstValue ofFloat(double v) { return {Float, 0, v}; }
  static ConstValue ofBool(bool v) { return {Bool, v, 0}; }
  /// dtypes.as_const(value, dtype).
  ConstValue as(Scalar s) const;
  double asDouble() const { return kind == Float ? f : (double)i; }
  bool operator==(const ConstValue &o) const;
};

struct Node;
class Graph;

/// REDUCE_AXIS's arg: (op, axes) and the optional fuse marker.
struct ReduceArg {
  Op op;
  llvm::SmallVector<int64_t, 4> axes;
  bool fuse = false;
  bool operator==(const ReduceArg &o) const {
    return op == o.op && axes == o.axes && fuse == o.fuse;
  }
};

/// KERNEL's arg: the kernel's AST (a SINK, or COPY/BUFFER_VIEW).
struct KernelArg {
  const Node *ast;
  bool operator==(const KernelArg &o) const { return ast == o.ast; }
};

using Pairs = llvm::SmallVector<std::pair<int64_t, int64_t>, 4>;
using Ints = llvm::SmallVector<int64_t, 4>;
/// A ShapeTracker interned by its Graph (Graph::intern): equal trackers are
/// one pointer, so a node stays small and compares its arg by address.
using STRef = const shape::ShapeTracker *;
using Arg = std::variant<std::monostate, int64_t, std::string, ConstValue, STRef, Ints, Pairs,
                         ReduceArg, KernelArg>;

/// One interned UOp. Never built directly: Graph::get returns the unique
/// node for (op, dtype, src, arg, tag).
struct Node {
  Op op;
  DType dtype;
  llvm::SmallVector<const Node *, 3> src;
  Arg arg;
  int tag = 0;

  template <typename T> const T &as() const { return std::get<T>(arg); }
  int64_t intArg() const { return std::get<int64_t>(arg); }
  const Ints &ints() const { return std::get<Ints>(arg); }
  const Pairs &pairs() const { return std::get<Pairs>(arg); }
  const ReduceArg &reduce() const { return std::get<ReduceArg>(arg); }
  const shape::ShapeTracker &viewArg() const { return *std::get<STRef>(arg); }

  /// UOp.st: the ShapeTracker of a node with a shape (nullptr: none).
  const shape::ShapeTracker *st() const;
  llvm::ArrayRef<int64_t> shape() const { return st()->shape(); }
  /// UOp.size: BUFFER's element count, else the shape's.
  int64_t size() const;
  /// UOp.base: the node under any VIEW (with a source) and movement ops.
  const Node *base() const;
  /// UOp._device (nullopt: none); UOp.device asserts one exists.
  const std::string *device() const;
  /// UOp.buf_uop: the BUFFER an ASSIGN (or BUFFER) writes.
  const Node *bufUop() const;
  /// UOp.toposort with an optional gate (children only past nodes it accepts).
  llvm::SmallVector<const Node *>
  toposort(const std::function<bool(const Node *)> &gate = nullptr) const;

private:
  friend class Graph;
  Graph *graph = nullptr; // the graph that interned it
  mutable bool stDone = false;
  mutable STRef stCache = nullptr;
  mutable bool deviceDone = false;
  mutable const std::string *deviceCache = nullptr;
  const Node *nextInBucket = nullptr; // Graph's interning table
  friend class Rewriter;
  mutable uint64_t memoOwner = 0; // the Rewriter whose memo slot this is
  mutable const Node *memoValue = nullptr;
};

using NodeList = llvm::SmallVector<const Node *, 4>;

/// The interning context, and tinygrad's UOp constructors and sugar.
class Graph {
public:
  Graph();
  ~Graph();
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;

  const Node *get(Op op, DType dtype, llvm::ArrayRef<const Node *> src = {}, Arg arg = {},
                  int tag = 0);
  const Node *replace(const Node *n, llvm::ArrayRef<const Node *> src) {
    return get(n->op, n->dtype, src, n->arg, n->tag);
  }
  const Node *withTag(const Node *n, int tag) { return get(n->op, n->dtype, n->src, n->arg, tag); }
  const Node *withArg(const Node *n, Arg arg) {
    return get(n->op, n->dtype, n->src, std::move(arg), n->tag);
  }

  // Constructors with tinygrad's names and semantics (uop/ops.py).
  const Node *view(const Node *x, const shape::ShapeTracker &st);
  /// _mop: the movement op, or `x` itself when it changes nothing.
  const Node *mop(Op op, const Node *x, Arg arg);
  const Node *reshape(const Node *x, llvm::ArrayRef<int64_t> shape) {
    return mop(Op::RESHAPE, x, Ints(shape));
  }
  const Node *permute(const Node *x, llvm::ArrayRef<int64_t> order) {
    return mop(Op::PERMUTE, x, Ints(order));
  }
  const Node *shrink(const Node *x, llvm::ArrayRef<std::pair<int64_t, int64_t>> arg) {
    return mop(Op::SHRINK, x, Pairs(arg));
  }
  const Node *pad(const Node *x, llvm::ArrayRef<std::pair<int64_t, int64_t>> arg) {
    return mop(Op::PAD, x, Pairs(arg));
  }
  /// UOp.const(dtype, value, device, shape).
  const Node *constant(DType dtype, ConstValue value, const std::string *device,
                       std::optional<llvm::ArrayRef<int64_t>> shape);
  /// UOp.const_like.
  const Node *constLike(const Node *x, ConstValue value);
  /// UOp.alu: the result dtype is the last source's (bool for comparisons).
  const Node *alu(Op op, llvm::ArrayRef<const Node *> src);
  const Node *unaryOp(Op op, const Node *x) { return alu(op, {x}); }
  const Node *cast(const Node *x, DType dtype);
  const Node *contiguous(const Node *x) { return alu(Op::CONTIGUOUS, {x}); }
  const Node *fuse(const Node *x) { return alu(Op::FUSE, {x}); }
  const Node *gbarrier(const Node *x) { return alu(Op::GBARRIER, {x}); }
  const Node *assign(const Node *target, const Node *x) {
    return get(Op::ASSIGN, target->dtype, {target, x});
  }
  const Node *sink(llvm::ArrayRef<const Node *> src) { return get(Op::SINK, {}, src); }
  /// UOp.r: reduce `axes` (those of size 1 dropped), non-reduced axes moved
  /// before the reduced ones, and the result reshaped to keep its rank.
  const Node *r(const Node *x, Op op, llvm::ArrayRef<int64_t> axes);
  /// UOp.new_buffer: a BUFFER with a fresh UNIQUE.
  const Node *newBuffer(const std::string &device, int64_t size, DType dtype);
  /// UOp.substitute: every occurrence of a key replaced (bottom-up).
  const Node *substitute(const Node *root, const llvm::DenseMap<const Node *, const Node *> &map);

  const std::string *internDevice(llvm::StringRef device);
  /// The one copy of `st` this graph keeps.
  STRef intern(const shape::ShapeTracker &st);
  int64_t nextUnique() { return uniqueCounter++; }
  void setNextUnique(int64_t n) { uniqueCounter = n; }
  size_t numNodes() const { return numInterned; }

private:
  struct Impl;
  std::unique_ptr<Impl> impl;
  int64_t uniqueCounter = 0;
  size_t numInterned = 0;
};

} // namespace mlir::uop::kernelize

#endif // UOP_KERNELIZE_GRAPH_H

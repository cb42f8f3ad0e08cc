//===- Transcendental.cpp - tinygrad's uop/transcendental.py --------------===//
//
// A line-by-line transcription: each function builds the ops tinygrad's
// builds, in its order, with its constants. The arithmetic reads as
// tinygrad's does through `U`, which spells each operator the way
// tinygrad's mathtraits.py does (x - y is ADD(x, MUL(y, -1)), x / y is
// MUL(x, RECIP(y)), x >= y is NOT(x < y)), so that the graph (and with the
// same contraction rules, every rounding) is tinygrad's.
//
//===----------------------------------------------------------------------===//

#include "Transcendental.h"

#include "uop/Dialect/UOp/IR/UOpOps.h"
#include "uop/Dialect/UOp/IR/UOpTypes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::uop;

namespace {

/// A uop value with tinygrad's UOp arithmetic. Constants take the dtype of
/// the value they meet (tinygrad's const_like).
struct U {
  Value v;
  OpBuilder *b;
  Location loc;

  Type type() const { return v.getType(); }
  Type scalar() const { return getScalarType(v.getType()); }
  U wrap(Value x) const { return {x, b, loc}; }

  /// const_like: `x` in this value's dtype (integers modulo their width).
  U c(double x) const {
    Type s = scalar();
    TypedAttr a;
    if (auto f = dyn_cast<FloatType>(s))
      a = FloatAttr::get(f, x);
    else if (s.isInteger(1))
      a = b->getBoolAttr(x != 0);
    else
      a = IntegerAttr::get(s, APInt(s.getIntOrFloatBitWidth(),
                                    static_cast<uint64_t>(static_cast<int64_t>(x)),
                                    /*isSigned=*/false, /*implicitTrunc=*/true));
    return ci(a);
  }
  /// An integer constant too wide for a double.
  U cu(uint64_t x) const { return cOf(scalar(), x); }
  /// An integer constant of dtype `elem` (with this value's lanes).
  U cOf(Type elem, uint64_t x) const {
    return ci(IntegerAttr::get(elem, APInt(elem.getIntOrFloatBitWidth(), x, false, true)));
  }
  U ci(TypedAttr a) const {
    if (auto vec = dyn_cast<VectorType>(type())) {
      auto t = VectorType::get(vec.getShape(), a.getType());
      return wrap(ConstOp::create(*b, loc, t, DenseElementsAttr::get(t, Attribute(a))));
    }
    return wrap(ConstOp::create(*b, loc, a.getType(), a));
  }

  U cast(Type elem) const {
    Type t = withScalarType(type(), elem);
    return t == type() ? *this : wrap(CastOp::create(*b, loc, t, v));
  }
  U bitcast(Type elem) const {
    return wrap(BitcastOp::create(*b, loc, withScalarType(type(), elem), v));
  }
  U recip() const { return wrap(RecipOp::create(*b, loc, type(), v)); }
  U log2() const { return wrap(Log2Op::create(*b, loc, type(), v)); }
  U exp2() const { return wrap(Exp2Op::create(*b, loc, type(), v)); }
  U lt(U y) const { return wrap(CmpLtOp::create(*b, loc, v, y.v)); }
  U lt(double y) const { return lt(c(y)); }
  U ne(U y) const { return wrap(CmpNeOp::create(*b, loc, v, y.v)); }
  U ne(double y) const { return ne(c(y)); }
  /// tinygrad's eq: NOT(x != y).
  U eq(double y) const { return ne(y).ne(1); }
  /// x >= y: NOT(x < y), with NOT as x != True.
  U ge(double y) const { return lt(y).ne(1); }
  U where(U x, U y) const { return wrap(WhereOp::create(*b, loc, x.type(), v, x.v, y.v)); }
  U where(double x, double y) const = delete; // the dtype comes from a value
  U idiv(uint64_t y) const { return wrap(IDivOp::create(*b, loc, type(), v, cu(y).v)); }
  U mod(double y) const { return wrap(ModOp::create(*b, loc, type(), v, c(y).v)); }
};

U operator+(U x, U y) { return x.wrap(AddOp::create(*x.b, x.loc, x.type(), x.v, y.v)); }
U operator+(U x, double y) { return x + x.c(y); }
U operator*(U x, U y) { return x.wrap(MulOp::create(*x.b, x.loc, x.type(), x.v, y.v)); }
U operator*(U x, double y) { return x * x.c(y); }
U operator-(U x) { return x * -1.0; }
U operator-(U x, U y) { return x + (-y); }
U operator-(U x, double y) { return x + x.c(-y); }
U operator-(double x, U y) { return y.c(x) + (-y); } // tinygrad's __rsub__
U operator&(U x, U y) { return x.wrap(AndOp::create(*x.b, x.loc, x.type(), x.v, y.v)); }
U operator&(U x, uint64_t y) { return x & x.cu(y); }
U operator|(U x, U y) { return x.wrap(OrOp::create(*x.b, x.loc, x.type(), x.v, y.v)); }
U operator|(U x, uint64_t y) { return x | x.cu(y); }
U operator^(U x, U y) { return x.wrap(XorOp::create(*x.b, x.loc, x.type(), x.v, y.v)); }
U operator^(U x, uint64_t y) { return x ^ x.cu(y); }
U operator+(U x, uint64_t y) { return x + x.cu(y); }

/// `cond.where(x_const, y_const)` with the constants in `like`'s dtype.
U select(U cond, U like, double x, double y) { return cond.where(like.c(x), like.c(y)); }

// *** dtypes ***

MLIRContext *ctxOf(U x) { return x.v.getContext(); }
Type signedOf(U x, unsigned w) { return IntegerType::get(ctxOf(x), w, IntegerType::Signed); }
Type unsignedOf(U x, unsigned w) { return IntegerType::get(ctxOf(x), w, IntegerType::Unsigned); }
Type f32(U x) { return Float32Type::get(ctxOf(x)); }
unsigned width(Type floatOrInt) { return floatOrInt.getIntOrFloatBitWidth(); }

int64_t mantissaBits(Type f) { return width(f) == 64 ? 52 : width(f) == 32 ? 23 : 10; }
int64_t exponentBias(Type f) { return width(f) == 64 ? 1023 : width(f) == 32 ? 127 : 15; }
int64_t exponentMask(Type f) { return width(f) == 64 ? 2047 : width(f) == 32 ? 255 : 31; }
/// The float dtype of an int's width: int64 -> f64, int32 -> f32, int16 -> f16.
Type floatOfWidth(U x, unsigned w) {
  MLIRContext *ctx = ctxOf(x);
  return w == 64   ? Type(Float64Type::get(ctx))
         : w == 32 ? Type(Float32Type::get(ctx))
                   : Type(Float16Type::get(ctx));
}
uint64_t pow2(int64_t e) { return uint64_t(1) << e; }

// *** utils ***

U shr(U x, int64_t y) { return x.idiv(pow2(y)); }
U shl(U x, int64_t y) { return x * x.cu(pow2(y)); }

/// Round to an int, halves away from 0.
U rintk(U d) {
  U half = select(d.lt(0.0), d, -0.5, 0.5);
  return (d + half).cast(signedOf(d, width(d.scalar())));
}

/// 2^q as a float, for an integer q in [-126, 127].
U pow2if(U q, Type floatDtype) {
  unsigned w = width(q.scalar());
  Type out = w == 16 ? floatDtype : floatOfWidth(q, w);
  return shl(q + double(exponentBias(out)), mantissaBits(out)).bitcast(out);
}

/// The integer part of log2(d) for a normalized d >= 0.
U ilogb2k(U d) {
  Type f = d.scalar();
  U dint = d.bitcast(signedOf(d, width(f)));
  return (shr(dint, mantissaBits(f)) & uint64_t(exponentMask(f))) - double(exponentBias(f));
}

/// d * 2^e for e a float holding an integer in [-127, 127].
U ldexp3k(U d, U e) {
  Type f = d.scalar(), i = signedOf(d, width(f));
  U m1 = d.bitcast(i);
  U m2 = shl(e.cast(i), mantissaBits(f));
  return (m1 + m2).bitcast(f);
}

/// d * 2^e for d > 0 not denormal.
U ldexp2k(U d, U e) {
  Type f = d.scalar();
  return (d * pow2if(shr(e, 1), f)) * pow2if(e - shr(e, 1), f);
}

/// (mantissa in [0.5, 1), exponent) of v != 0.
std::pair<U, U> frexp(U v) {
  Type f = v.scalar();
  unsigned w = width(f);
  uint64_t m1 = w == 64 ? 0x000FFFFFFFFFFFFF : w == 32 ? 0x807FFFFF : 0x83FF;
  uint64_t m2 = w == 64 ? 0x3FE0000000000000 : w == 32 ? 0x3F000000 : 0x3800;
  U bits = v.bitcast(unsignedOf(v, w));
  U exponent = shr(bits, mantissaBits(f)) & uint64_t(exponentMask(f));
  U mantissa = ((bits & m1) | m2).bitcast(f);
  U exp = exponent - double(exponentBias(f)) + 1.0;
  return {mantissa, exp};
}

/// inf -> inf, -inf -> _inf, nan -> nan, else ratio.
U lazyMapNumbers(U x, U inf, U negInf, U nan, U ratio) {
  return x.ne(INFINITY).where(x.ne(x).where(nan, x.ne(-INFINITY).where(ratio, negInf)), inf);
}

U polyN(U x, ArrayRef<double> p) {
  // tinygrad folds the first step, 0*x + p[0], to p[0].
  U acc = x.c(p.front());
  for (double c : p.drop_front())
    acc = acc * x + c;
  return acc;
}

// *** reduction algorithms for sine ***

/// d mod pi/2 for 39800 <= d <= inf: (r, q) with q % 4 the quadrant.
std::pair<U, U> payneHanekReduction(U d) {
  static constexpr uint64_t twoOverPi[] = {0x00000000, 0x28be60db, 0x9391054a, 0x7f09d5f4,
                                           0x7d4d3770, 0x36d8a566, 0x4f10e410};
  Type f = d.scalar(), u32 = unsignedOf(d, 32), u64 = unsignedOf(d, 64), i32 = signedOf(d, 32);
  Type intermediate = width(f) == 16 ? f32(d) : f;
  auto [fr, e0] = frexp(d);
  U ia = (fr.cast(intermediate) * 4.294967296e9).cast(u64);
  U i = shr(e0.cast(u64), 5);
  U e = e0.cast(i32) & 31;
  U offset = 32.0 - e;
  // two_over_pi[i + offset], as nested selects on i.
  auto take = [&](int64_t off) {
    U an = e.cOf(u32, 0);
    std::function<U(U, int64_t)> rec = [&](U an, int64_t count) -> U {
      if (count + off < int64_t(std::size(twoOverPi)) - 1)
        return i.ne(double(count)).where(rec(an, count + 1), an.cu(twoOverPi[count + off]));
      return an;
    };
    return rec(an, 0);
  };
  auto shlLazy = [&](U x, U y) { return (x.cast(u64) * pow2if(y, f).cast(u64)).cast(u32); };
  auto shrLazy = [&](U x, U y) {
    U p = pow2if(y, f).cast(u64);
    return x.wrap(IDivOp::create(*x.b, x.loc, p.type(), x.cast(u64).v, p.v)).cast(u32);
  };
  U a[4] = {take(0), take(1), take(2), take(3)};
  U hi = shlLazy(a[0], e) | shrLazy(a[1], offset);
  U mi = shlLazy(a[1], e) | shrLazy(a[2], offset);
  U lo = shlLazy(a[2], e) | shrLazy(a[3], offset);
  auto hpMul = [&](U x, U y) { return x.cast(u64) * y.cast(u64); };
  U p = shl(hpMul(ia, hi), 32) + hpMul(ia, mi) + shr(hpMul(ia, lo), 32);
  U q = shr(p, 62).cast(i32);
  p = p & uint64_t(0x3fffffffffffffff);
  U r = (p.cast(intermediate) * 3.4061215800865545e-19).cast(f);
  U small = fr.lt(0.5);
  return {small.where(r, r - M_PI / 2), small.where(q, q + 1.0)};
}

/// d mod pi/2 for 0 <= |d| <= 39800, as payneHanekReduction.
std::pair<U, U> codyWaiteReduction(U d) {
  Type f = d.scalar();
  const double m1pi = 0.318309886183790671537767526745028724;
  bool f64 = width(f) == 64;
  std::optional<U> qdh;
  if (f64)
    qdh = (d * (m1pi / 16777216.0)).cast(signedOf(d, 64)).cast(f) * 16777216.0;
  U quadrant = f64 ? rintk(d * m1pi - *qdh) : rintk(d * m1pi);
  std::function<U(U, U)> reduce = [&](U x, U q) -> U {
    Type xf = x.scalar();
    if (width(xf) == 64) {
      const double a = 3.1415926218032836914, b = 3.1786509424591713469e-08,
                   c = 1.2246467864107188502e-16, dd = 1.2736634327021899816e-24;
      U r = *qdh * -a + x;
      r = q * -a + r;
      r = *qdh * -b + r;
      r = q * -b + r;
      r = *qdh * -c + r;
      r = q * -c + r;
      return (*qdh + q) * -dd + r;
    }
    if (width(xf) == 16) // f16 needs f32 to reach 1 ULP
      return reduce(x.cast(f32(x)), q.cast(f32(x))).cast(xf);
    U r = q * -3.1414794921875 + x;
    r = q * -0.00011315941810607910156 + r;
    r = q * -1.9841872589410058936e-09 + r;
    return q * -1.2154201256553420762e-10 + r;
  };
  return {reduce(d, quadrant.cast(f)), quadrant.cast(signedOf(d, 32))};
}

// *** sine on small angles ***

U sinPoly(U d) {
  static constexpr double c32[] = {2.6083159809786593541503e-06, -0.0001981069071916863322258,
                                   0.00833307858556509017944336, -0.166666597127914428710938, 1.0};
  static constexpr double c64[] = {-7.97255955009037868891952e-18, 2.81009972710863200091251e-15,
                                   -7.64712219118158833288484e-13, 1.60590430605664501629054e-10,
                                   -2.50521083763502045810755e-08, 2.75573192239198747630416e-06,
                                   -0.000198412698412696162806809, 0.00833333333333332974823815,
                                   -0.166666666666666657414808,    1.0};
  return d * (width(d.scalar()) == 64 ? polyN(d * d, c64) : polyN(d * d, c32));
}

U ifand(U q, uint64_t n) { return (q & n).ne(0.0); }

U sinPolySmall(U d, U q) {
  U r = sinPoly(d);
  return r * select(ifand(q, 1), r, -1.0, 1.0);
}

U sinPolyLarge(U d, U q) {
  U r = sinPoly(d + select(ifand(q, 1), d, M_PI / 2, 0.0));
  return r * select(ifand(q, 2), r, -1.0, 1.0);
}

} // namespace

bool transcendental::isSupported(Type t) {
  Type s = getScalarType(t);
  return s.isF16() || s.isF32() || s.isF64();
}

Value transcendental::xsin(OpBuilder &b, Location loc, Value v) {
  U d{v, &b, loc};
  U zero = d.c(0.0), nan = d.c(NAN);
  U x = lazyMapNumbers(d, zero, zero, zero, d);
  U xSign = x.ne(0.0).where(select(x.lt(0.0), x, -1.0, 1.0), x.c(0.0));
  U xAbs = x * xSign;
  auto [r, q] = payneHanekReduction(xAbs);
  // Payne-Hanek needs |x| >= pi/4: Cody-Waite below the switch-over.
  auto [rSmall, qSmall] = codyWaiteReduction(xAbs);
  U result = xAbs.lt(30.0).where(sinPolySmall(rSmall, qSmall), sinPolyLarge(r, q));
  result = result * xSign;
  return lazyMapNumbers(d, nan, nan, nan, result).v;
}

Value transcendental::xexp2(OpBuilder &b, Location loc, Value v) {
  U d{v, &b, loc};
  U zero = d.c(0.0);
  U x = lazyMapNumbers(d, zero, zero, zero, d);
  U q = rintk(x);
  U s = x - q.cast(x.scalar());
  unsigned w = width(d.scalar());
  U u =
      w == 64
          ? polyN(s, {0.4434359082926529454e-9, 0.7073164598085707425e-8, 0.1017819260921760451e-6,
                      0.1321543872511327615e-5, 0.1525273353517584730e-4, 0.1540353045101147808e-3,
                      0.1333355814670499073e-2, 0.9618129107597600536e-2, 0.5550410866482046596e-1,
                      0.2402265069591012214e+0, 0.6931471805599452862e+0, 0.1000000000000000000e+1})
          : polyN(s, {0.1535920892e-3, 0.1339262701e-2, 0.9618384764e-2, 0.5550347269e-1,
                      0.2402264476e+0, 0.6931471825e+0, 1.0});
  u = ldexp2k(u, q);
  double upper = w == 64   ? 1024
                 : w == 32 ? 128
                           : 23,
         lower = w == 64   ? -2000
                 : w == 32 ? -150
                           : -22;
  u = d.ge(upper).where(d.c(INFINITY), u);
  u = d.lt(lower).where(d.c(0.0), u);
  return d.ne(d).where(d.c(NAN), u).v;
}

Value transcendental::xlog2(OpBuilder &b, Location loc, Value v) {
  U d{v, &b, loc};
  unsigned w = width(d.scalar());
  if (w == 16) // f16 denormals need f32
    return d.wrap(xlog2(b, loc, d.cast(f32(d)).v)).cast(d.scalar()).v;
  U isDenormal = d.lt(1e-4);
  U a = isDenormal.where(d * 18446744073709551616.0, d);
  U e = ilogb2k(a * (1.0 / 0.75)).cast(a.scalar());
  U m = ldexp3k(a, -e);
  e = isDenormal.where(e - 64.0, e);
  U x = (m - 1.0) * (m + 1.0).recip();
  U x2 = x * x;
  U t = x, r = x;
  if (w == 64) {
    t = polyN(x2, {0.2211941750456081490e+0, 0.2200768693152277689e+0, 0.2623708057488514656e+0,
                   0.3205977477944495502e+0, 0.4121985945485324709e+0, 0.5770780162997058982e+0,
                   0.96179669392608091449});
    r = t * (x * x2) + (e + x * 2.885390081777926774); // + s_lo = 0, folded
  } else {
    t = polyN(x2, {0.4374550283e+0, 0.5764790177e+0, 0.9618012905120});
    r = t * (x * x2) + ((e + x * 2.8853900432586669922) + x * 3.2734474483568488616e-08);
  }
  r = d.ne(INFINITY).where(r, r.c(INFINITY));
  r = d.lt(-0.0).where(r.c(NAN), r);
  // log2(0) is -inf: the unmasked result of 0 is exactly this value.
  r = r.ne(w == 64 ? -1087.0 : -191.0).where(r, r.c(-INFINITY));
  r = d.ne(d).where(r.c(NAN), r);
  // log2(-0.0) = -inf (a device may not see -0.0 == 0; 1/-0.0 is -inf).
  return d.recip().ne(-INFINITY).where(r, r.c(-INFINITY)).v;
}

Value transcendental::xpow(OpBuilder &b, Location loc, Value baseV, Value exponentV) {
  U base{baseV, &b, loc}, exponent{exponentV, &b, loc};
  Type i32 = signedOf(base, 32);
  U ret = (base.lt(0.0).where(-base, base).log2() * exponent).exp2();
  // A negative base: nan for a non-integer exponent, -1 for an odd one.
  U nonInt = exponent.ne(exponent.cast(i32).cast(exponent.scalar()));
  U odd = exponent.lt(0.0)
              .where(-exponent, exponent)
              .cast(i32)
              .mod(2)
              .cast(IntegerType::get(b.getContext(), 1));
  U adj = nonInt.where(ret.c(NAN), select(odd, ret, -1.0, 1.0));
  // 0 ** 0 = 1
  U zeroZero = base.eq(0.0) & exponent.eq(0.0);
  return zeroZero.where(ret.c(1.0), ret * base.lt(0.0).where(adj, ret.c(1.0))).v;
}

Value transcendental::threefry(OpBuilder &b, Location loc, Value xv, Value keyv) {
  U x{xv, &b, loc}, key{keyv, &b, loc};
  Type u32 = unsignedOf(x, 32), u64 = unsignedOf(x, 64);
  auto lo = [&](U v) { return (v & uint64_t(0xffffffff)).cast(u32); };
  auto hi = [&](U v) { return (v.idiv(pow2(32)) & uint64_t(0xffffffff)).cast(u32); };
  U x0 = lo(x), x1 = hi(x), key0 = lo(key), key1 = hi(key);
  static constexpr int64_t rotations[2][4] = {{13, 15, 26, 6}, {17, 29, 16, 24}};
  U ks[3] = {key1, key0 ^ key1 ^ uint64_t(0x1BD11BDA), key0};
  U xr[2] = {x0 + ks[2], x1 + ks[0]};
  for (int64_t i = 0; i < 5; ++i) {
    for (int64_t r : rotations[i % 2]) {
      U sum = xr[0] + xr[1];
      xr[1] = sum ^ ((xr[1] * xr[1].cu(pow2(r))) + xr[1].idiv(pow2(32 - r)));
      xr[0] = sum;
    }
    xr[0] = xr[0] + ks[i % 3];
    xr[1] = xr[1] + ks[(i + 1) % 3] + uint64_t(i) + uint64_t(1);
  }
  return ((xr[1].cast(u64) * xr[1].cOf(u64, pow2(32))) | xr[0].cast(u64)).v;
}

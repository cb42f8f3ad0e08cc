// tinygrad's div_and_mod_folding (lib/Dialect/UOp/IR/DivModRules.cpp) with C's
// truncating division: each step firing, and not firing where the dividend
// can be negative (Python's and C's division differ) or the sum can wrap.
// RUN: uop-opt %s --canonicalize="test-convergence=true" | FileCheck %s

// (x*4+y)//4 -> x and (x*4+y)%4 -> y for y in [0, 3]; with n in [-3, 3] the
// sum can be negative: both stay. x//10 and x%10 for x in [0, 9]: 0 and x
// (one quotient over the range). (f*2^30 + y) // 2^30 stays: the sum wraps.
// (b*3)//2 for b in [0, 1] takes two values: b.
// CHECK-LABEL: func.func @divmod
// CHECK-DAG: %[[Z:.*]] = uop.const 0 : si32
// CHECK-DAG: %[[X:.*]] = uop.define_var "x"
// CHECK-DAG: %[[Y:.*]] = uop.define_var "y"
// CHECK-DAG: %[[B:.*]] = uop.define_var "b"
// CHECK-DAG: %[[DN:.*]] = uop.idiv %[[SN:.*]], %{{.*}} : si32
// CHECK-DAG: %[[MN:.*]] = uop.mod %[[SN]], %{{.*}} : si32
// CHECK-DAG: %[[DB:.*]] = uop.idiv %{{.*}}, %{{.*}} : si32
// CHECK: return %[[X]], %[[Y]], %[[DN]], %[[MN]], %[[Z]], %[[X]], %[[DB]], %[[B]] :
func.func @divmod(%full: si32) -> (si32, si32, si32, si32, si32, si32, si32, si32) {
  %x = uop.define_var "x" [0, 9] : si32
  %y = uop.define_var "y" [0, 3] : si32
  %n = uop.define_var "n" [-3, 3] : si32
  %c4 = uop.const 4 : si32
  %x4 = uop.mul %x, %c4 : si32
  %s = uop.add %x4, %y : si32
  %d = uop.idiv %s, %c4 : si32
  %m = uop.mod %s, %c4 : si32
  %sn = uop.add %x4, %n : si32
  %dn = uop.idiv %sn, %c4 : si32
  %mn = uop.mod %sn, %c4 : si32
  %c10 = uop.const 10 : si32
  %q = uop.idiv %x, %c10 : si32
  %r = uop.mod %x, %c10 : si32
  %big = uop.const 1073741824 : si32
  %xb = uop.mul %full, %big : si32
  %sb = uop.add %xb, %y : si32
  %db = uop.idiv %sb, %big : si32
  %b = uop.define_var "b" [0, 1] : si32
  %c3 = uop.const 3 : si32
  %b3 = uop.mul %b, %c3 : si32
  %c2 = uop.const 2 : si32
  %bd = uop.idiv %b3, %c2 : si32
  return %d, %m, %dn, %mn, %q, %r, %db, %bd : si32, si32, si32, si32, si32, si32, si32, si32
}

// A common factor: (6x+2)//4 -> (3x+1)//2 and (6x+2)%4 -> ((3x+1)%2)*2,
// exact in C for negative x too.
// CHECK-LABEL: func.func @gcd
// CHECK-DAG: %[[C2:.*]] = uop.const 2 : si32
// CHECK-DAG: %[[C1:.*]] = uop.const 1 : si32
// CHECK-DAG: %[[C3:.*]] = uop.const 3 : si32
// CHECK-DAG: %[[X3:.*]] = uop.mul %[[X:.*]], %[[C3]] : si32
// CHECK-DAG: %[[S:.*]] = uop.add %[[X3]], %[[C1]] : si32
// CHECK-DAG: %[[D:.*]] = uop.idiv %[[S]], %[[C2]] : si32
// CHECK-DAG: %[[X3B:.*]] = uop.mul %[[X]], %[[C3]] : si32
// CHECK-DAG: %[[SB:.*]] = uop.add %[[X3B]], %[[C1]] : si32
// CHECK-DAG: %[[MB:.*]] = uop.mod %[[SB]], %[[C2]] : si32
// CHECK-DAG: %[[M:.*]] = uop.mul %[[MB]], %[[C2]] : si32
// CHECK: return %[[D]], %[[M]] :
func.func @gcd(%full: si32) -> (si32, si32) {
  %c6 = uop.const 6 : si32
  %c4 = uop.const 4 : si32
  %c2 = uop.const 2 : si32
  %x = uop.define_var "x" [-100, 100] : si32
  %x6 = uop.mul %x, %c6 : si32
  %s = uop.add %x6, %c2 : si32
  %d = uop.idiv %s, %c4 : si32
  %m = uop.mod %s, %c4 : si32
  return %d, %m : si32, si32
}

// (x%12)%4 -> x%4 for x >= 0; kept for an n that can be negative.
// CHECK-LABEL: func.func @modmod
// CHECK-DAG: %[[C4:.*]] = uop.const 4 : si32
// CHECK-DAG: %[[X:.*]] = uop.define_var "x"
// CHECK-DAG: %[[A:.*]] = uop.mod %[[X]], %[[C4]] : si32
// CHECK-DAG: %[[N12:.*]] = uop.mod %{{.*}}, %{{.*}} : si32
// CHECK-DAG: %[[B:.*]] = uop.mod %[[N12]], %[[C4]] : si32
// CHECK: return %[[A]], %[[B]] :
func.func @modmod() -> (si32, si32) {
  %x = uop.define_var "x" [0, 100] : si32
  %n = uop.define_var "n" [-100, 100] : si32
  %c12 = uop.const 12 : si32
  %c4 = uop.const 4 : si32
  %a = uop.mod %x, %c12 : si32
  %b = uop.mod %a, %c4 : si32
  %an = uop.mod %n, %c12 : si32
  %bn = uop.mod %an, %c4 : si32
  return %b, %bn : si32, si32
}

// (x//3 + 2)//5 -> (x+6)//15 when x and 2 have one sign; kept for n.
// CHECK-LABEL: func.func @divdivconst
// CHECK-DAG: %[[C15:.*]] = uop.const 15 : si32
// CHECK-DAG: %[[C6:.*]] = uop.const 6 : si32
// CHECK-DAG: %[[X:.*]] = uop.define_var "x"
// CHECK-DAG: %[[S:.*]] = uop.add %[[X]], %[[C6]] : si32
// CHECK-DAG: %[[D:.*]] = uop.idiv %[[S]], %[[C15]] : si32
// CHECK-DAG: %[[N:.*]] = uop.define_var "n"
// CHECK-DAG: %[[N3:.*]] = uop.idiv %[[N]], %{{.*}} : si32
// CHECK-DAG: %[[N32:.*]] = uop.add %[[N3]], %{{.*}} : si32
// CHECK-DAG: %[[DN:.*]] = uop.idiv %[[N32]], %{{.*}} : si32
// CHECK: return %[[D]], %[[DN]] :
func.func @divdivconst() -> (si32, si32) {
  %x = uop.define_var "x" [0, 100] : si32
  %n = uop.define_var "n" [-100, 100] : si32
  %c3 = uop.const 3 : si32
  %c2 = uop.const 2 : si32
  %c5 = uop.const 5 : si32
  %a = uop.idiv %x, %c3 : si32
  %b = uop.add %a, %c2 : si32
  %d = uop.idiv %b, %c5 : si32
  %an = uop.idiv %n, %c3 : si32
  %bn = uop.add %an, %c2 : si32
  %dn = uop.idiv %bn, %c5 : si32
  return %d, %dn : si32, si32
}

// A term that wraps on its own: r*2^30 for r in [0, 3] is -2^31 at r = 2,
// where x // 2^30 is -2, not r. The wrapping range of the term (all of si32)
// would hide it; the rules add the terms' ranges without wrapping.
// CHECK-LABEL: func.func @wrapping_term
// CHECK-DAG: %[[X:.*]] = uop.mul %{{.*}}, %[[BIG:.*]] : si32
// CHECK-DAG: %[[D:.*]] = uop.idiv %[[X]], %[[BIG]] : si32
// CHECK-DAG: %[[M:.*]] = uop.mod %[[X]], %[[BIG]] : si32
// CHECK: return %[[D]], %[[M]] :
func.func @wrapping_term() -> (si32, si32) {
  %r = uop.define_var "r" [0, 3] : si32
  %big = uop.const 1073741824 : si32
  %x = uop.mul %r, %big : si32
  %d = uop.idiv %x, %big : si32
  %m = uop.mod %x, %big : si32
  return %d, %m : si32, si32
}

// A constant that c changes is a change (tinygrad's something_changed):
// (x+30)%30 -> x%30 and (x+30)//30 -> x//30 + 1 for x >= 0; kept for an n
// that can be negative, where C's division differs.
// CHECK-LABEL: func.func @constant_term
// CHECK-DAG: %[[C1:.*]] = uop.const 1 : si32
// CHECK-DAG: %[[C30:.*]] = uop.const 30 : si32
// CHECK-DAG: %[[X:.*]] = uop.define_var "x"
// CHECK-DAG: %[[M:.*]] = uop.mod %[[X]], %[[C30]] : si32
// CHECK-DAG: %[[Q:.*]] = uop.idiv %[[X]], %[[C30]] : si32
// CHECK-DAG: %[[D:.*]] = uop.add %[[Q]], %[[C1]] : si32
// CHECK-DAG: %[[N:.*]] = uop.define_var "n"
// CHECK-DAG: %[[NS:.*]] = uop.add %[[N]], %[[C30]] : si32
// CHECK-DAG: %[[MN:.*]] = uop.mod %[[NS]], %[[C30]] : si32
// CHECK: return %[[M]], %[[D]], %[[MN]] :
func.func @constant_term() -> (si32, si32, si32) {
  %x = uop.define_var "x" [0, 100] : si32
  %n = uop.define_var "n" [-100, 100] : si32
  %c30 = uop.const 30 : si32
  %s = uop.add %x, %c30 : si32
  %m = uop.mod %s, %c30 : si32
  %d = uop.idiv %s, %c30 : si32
  %sn = uop.add %n, %c30 : si32
  %mn = uop.mod %sn, %c30 : si32
  return %m, %d, %mn : si32, si32, si32
}

// The same step where the remainder's sum would wrap: for x up to INT32_MAX,
// (x-5)%30 -> (x+25)%30 would compute x+25, which wraps; both stay.
// CHECK-LABEL: func.func @constant_term_wraps
// CHECK-DAG: %[[X:.*]] = uop.define_var "x"
// CHECK-DAG: %[[S:.*]] = uop.add %[[X]], %{{.*}} : si32
// CHECK-DAG: %[[M:.*]] = uop.mod %[[S]], %{{.*}} : si32
// CHECK-DAG: %[[D:.*]] = uop.idiv %[[S]], %{{.*}} : si32
// CHECK: return %[[M]], %[[D]] :
func.func @constant_term_wraps() -> (si32, si32) {
  %x = uop.define_var "x" [5, 2147483647] : si32
  %cm5 = uop.const -5 : si32
  %c30 = uop.const 30 : si32
  %s = uop.add %x, %cm5 : si32
  %m = uop.mod %s, %c30 : si32
  %d = uop.idiv %s, %c30 : si32
  return %m, %d : si32, si32
}

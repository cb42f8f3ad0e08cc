// Value ranges (tinygrad's vmin/vmax) come from InferIntRangeInterface on
// the uop ops (UOpRanges.cpp), so upstream's integer range analysis reads
// them too: --int-range-optimizations folds what the ranges decide. Both it
// and --canonicalize use our semantics: x / 0 is 0, so (i / 0) == 0 is true.
// RUN: uop-opt %s --int-range-optimizations | FileCheck %s --check-prefix=UPSTREAM
// RUN: uop-opt %s --canonicalize | FileCheck %s --check-prefix=CANON

// i = r*4 + lidx0 lies in [0, 63]: i < 64 is true, i < 60 is not decided
// by ranges (lt_folding makes it r < 15).
// UPSTREAM-LABEL: uop.kernel @k
// UPSTREAM: %[[I:.*]] = uop.add
// UPSTREAM: %[[LT:.*]] = uop.cmplt %[[I]], %{{.*}} : si32
// UPSTREAM-NOT: uop.and
// UPSTREAM-NOT: uop.idiv
// UPSTREAM: uop.store %{{.*}}, %[[LT]]
// CANON-LABEL: uop.kernel @k
// CANON: %[[R:.*]] = uop.range
// CANON: %[[LT:.*]] = uop.cmplt %[[R]], %{{.*}} : si32
// CANON-NOT: uop.and
// CANON: uop.store %{{.*}}, %[[LT]]
uop.kernel @k {
  %o = uop.define_global 0 : !uop.ptr<i1, 64>
  %c16 = uop.const 16 : si32
  %c4 = uop.const 4 : si32
  %c64 = uop.const 64 : si32
  %c60 = uop.const 60 : si32
  %c0 = uop.const 0 : si32
  %r = uop.range %c16 axis 0 global : si32
  %g = uop.special "lidx0" 4 : si32
  %a = uop.mul %r, %c4 : si32
  %i = uop.add %a, %g : si32
  %lt = uop.cmplt %i, %c64 : si32
  %lt2 = uop.cmplt %i, %c60 : si32
  %d = uop.idiv %i, %c0 : si32
  %z = uop.cmpeq %d, %c0 : si32
  %both = uop.and %lt, %z : i1
  %both2 = uop.and %both, %lt2 : i1
  %p = uop.index %o[%i] : !uop.ptr<i1, 64>, si32
  %s = uop.store %p, %both2 : !uop.ptr<i1, 64>
  uop.sink %s
}

// Ranges through casts, shifts, unsigned compares and WHERE; a shift that
// may reach the width and a divisor that spans 0 bound nothing.
// UPSTREAM-LABEL: uop.kernel @more
// UPSTREAM-DAG: %[[T:.*]] = uop.const true
// UPSTREAM-DAG: %[[SH:.*]] = uop.shl %{{.*}}, %{{.*}} : si32, si32
// UPSTREAM-DAG: %[[LTSH:.*]] = uop.cmplt %[[SH]], %{{.*}} : si32
// UPSTREAM-DAG: %[[DV:.*]] = uop.idiv %{{.*}}, %{{.*}} : si32
// UPSTREAM-DAG: %[[LTDV:.*]] = uop.cmplt %[[DV]], %{{.*}} : si32
// UPSTREAM: uop.store %{{.*}}, %[[T]]
// UPSTREAM: uop.store %{{.*}}, %[[T]]
// UPSTREAM: uop.store %{{.*}}, %[[T]]
// UPSTREAM: uop.store %{{.*}}, %[[LTSH]]
// UPSTREAM: uop.store %{{.*}}, %[[LTDV]]
uop.kernel @more {
  %o = uop.define_global 0 : !uop.ptr<i1, 8>
  %c0 = uop.const 0 : si32
  %c8 = uop.const 8 : si32
  %c100 = uop.const 100 : ui8
  %c3 = uop.const 3 : si32
  %c40 = uop.const 40 : si32
  %r = uop.range %c8 axis 0 global : si32
  %u = uop.cast %r : si32 -> ui8
  %ltu = uop.cmplt %u, %c100 : ui8
  %s3 = uop.shl %r, %c3 : si32, si32
  %c57 = uop.const 57 : si32
  %lts = uop.cmplt %s3, %c57 : si32
  %n = uop.define_var "n" [-1, 1] : si32
  %w = uop.where %ltu, %r, %c0 : si32
  %ltw = uop.cmplt %w, %c8 : si32
  %v = uop.define_var "v" [0, 40] : si32
  %sv = uop.shl %r, %v : si32, si32
  %ltsv = uop.cmplt %sv, %c40 : si32
  %dv = uop.idiv %c40, %n : si32
  %ltdv = uop.cmplt %dv, %c40 : si32
  %p = uop.index %o[%c0] : !uop.ptr<i1, 8>, si32
  %s0 = uop.store %p, %ltu : !uop.ptr<i1, 8>
  %s1 = uop.store %p, %lts : !uop.ptr<i1, 8>
  %s2 = uop.store %p, %ltw : !uop.ptr<i1, 8>
  %s3b = uop.store %p, %ltsv : !uop.ptr<i1, 8>
  %s4 = uop.store %p, %ltdv : !uop.ptr<i1, 8>
  uop.sink %s0, %s1, %s2, %s3b, %s4
}

// A symbolic SPECIAL lies below its size's own bound when that is tighter
// than the SPECIAL's (n <= 6 here, so gidx0 < 6); a constant size folds
// into the static form.
// CANON-LABEL: uop.kernel @symbolic_special
// CANON: %[[T:.*]] = uop.const true
// CANON: uop.special "gidx1" 4 : si32
// CANON: uop.store %{{.*}}, %[[T]]
uop.kernel @symbolic_special {
  %o = uop.define_global 0 : !uop.ptr<i1, 8>
  %c0 = uop.const 0 : si32
  %c4 = uop.const 4 : si32
  %c6 = uop.const 6 : si32
  %n = uop.define_var "n" [1, 6] : si32
  %g = uop.special "gidx0" size %n max 16 : si32
  %h = uop.special "gidx1" size %c4 max 16 : si32
  %lt = uop.cmplt %g, %c6 : si32
  %p = uop.index %o[%h] : !uop.ptr<i1, 8>, si32
  %s = uop.store %p, %lt : !uop.ptr<i1, 8>
  uop.sink %s
}

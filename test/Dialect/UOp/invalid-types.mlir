// Types and attributes that must be rejected, with a located error.
// RUN: uop-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{pointer element must be a tinygrad dtype}}
func.func private @signless(!uop.ptr<i32, 4>)

// -----

// expected-error @+1 {{pointer element must be a tinygrad dtype}}
func.func private @index(!uop.ptr<index, 4>)

// -----

// expected-error @+1 {{pointer size must be non-negative or ?}}
func.func private @negsize(!uop.ptr<f32, -2>)

// -----

// expected-error @+1 {{unknown address space 'shared', expected global, local, reg or cluster}}
func.func private @space(!uop.ptr<f32, 4, shared>)

// -----

// expected-error @+1 {{pointer vcount must be at least 1, got 0}}
func.func private @vcount(!uop.ptr<f32, 4, global, vec 0>)

// -----

// expected-error @+1 {{view has 2 dimensions but 1 strides}}
func.func private @strides() attributes {v = #uop.view<shape = [4, 4], strides = [1]>}

// -----

// expected-error @+1 {{view dimension 1 has negative size -4}}
func.func private @negdim() attributes {v = #uop.view<shape = [4, -4], strides = [1, 1]>}

// -----

// expected-error @+1 {{view mask has 1 ranges for 2 dimensions}}
func.func private @maskcount() attributes {v = #uop.view<shape = [4, 4], strides = [4, 1], mask = [[0, 1]]>}

// -----

// expected-error @+1 {{view mask [2, 5) of dimension 0 is not within [0, 4]}}
func.func private @maskrange() attributes {v = #uop.view<shape = [4, 4], strides = [4, 1], mask = [[2, 5], [0, 4]]>}

// -----

// expected-error @+1 {{view mask [3, 2) of dimension 1 is not within [0, 4]}}
func.func private @maskorder() attributes {v = #uop.view<shape = [4, 4], strides = [4, 1], mask = [[0, 4], [3, 2]]>}

// -----

// Optional fields come in a fixed order: offset, mask, then sym.
// expected-error @+1 {{expected 'sym'}}
func.func private @order() attributes {v = #uop.view<shape = [4], strides = [1], mask = [[0, 4]], offset = 2>}

// -----

// expected-error @+1 {{expected 'sym'}}
func.func private @twice() attributes {v = #uop.view<shape = [4], strides = [1], offset = 1, offset = 2>}

// -----

// expected-error @+1 {{an empty mask is only valid for a 0-d view; omit the mask instead}}
func.func private @emptymask() attributes {v = #uop.view<shape = [4], strides = [1], mask = []>}

// -----

// expected-error @+1 {{a ShapeTracker needs at least one view}}
func.func private @emptyst() attributes {v = #uop.st<[]>}

// -----

// expected-error @+1 {{size of axis 3 must be positive, got 0}}
func.func private @axes() attributes {v = #uop.axes<(3, 0)>}

// -----

// expected-error @+1 {{expected a pair of integers}}
func.func private @notpair() attributes {v = #uop.axes<(3)>}

// -----

// expected-error @+1 {{expected a pair of integers}}
func.func private @maskpair() attributes {v = #uop.view<shape = [4], strides = [1], mask = [[0, 1, 2]]>}

// -----

// expected-error @+1 {{axis must be non-negative, got -1}}
func.func private @negaxis() attributes {v = #uop.axes<(-1, 2)>}

// -----

// Signless integers other than i1 are not tinygrad dtypes: their signedness
// decides division, shifts and comparisons.
func.func @signless_alu(%a: i32) {
  // expected-error @+1 {{operand #0 must be tinygrad value}}
  %0 = uop.add %a, %a : i32
  return
}

// -----

func.func @index_alu(%a: index) {
  // expected-error @+1 {{operand #0 must be tinygrad value}}
  %0 = uop.add %a, %a : index
  return
}

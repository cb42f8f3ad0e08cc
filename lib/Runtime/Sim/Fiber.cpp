//===- Fiber.cpp - the simulator's stack switch ---------------------------===//

#include "Fiber.h"

#include <cstdint>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UOP_SIM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define UOP_SIM_ASAN 1
#endif
#ifdef UOP_SIM_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace mlir::uop::sim {

namespace {
// The fiber the last switch on this OS thread left: the one that learns
// its stack's extent from AddressSanitizer when the switch completes.
thread_local Fiber *switchedFrom = nullptr;

void beginSwitch(Fiber &from, Fiber &to, bool exiting) {
#ifdef UOP_SIM_ASAN
  // A fiber that exits gives its fake stack up (nullptr).
  __sanitizer_start_switch_fiber(exiting ? nullptr : &from.fakeStack, to.stackBottom, to.stackSize);
#else
  (void)to;
  (void)exiting;
#endif
  switchedFrom = &from;
}

/// On the stack switched to: `self` is the fiber now running, null for
/// one that starts (it has no fake stack yet).
void endSwitch(Fiber *self) {
#ifdef UOP_SIM_ASAN
  const void *bottom = nullptr;
  size_t size = 0;
  __sanitizer_finish_switch_fiber(self ? self->fakeStack : nullptr, &bottom, &size);
  switchedFrom->stackBottom = bottom;
  switchedFrom->stackSize = size;
#else
  (void)self;
#endif
}

/// The part of preparing a fiber that both implementations share.
void resetStack(Fiber &fiber, void *stack, size_t size) {
#ifdef UOP_SIM_ASAN
  // Frames a fiber left when it last stopped (a fault, a block's end)
  // keep their redzones poisoned.
  ASAN_UNPOISON_MEMORY_REGION(stack, size);
#endif
  fiber.stackBottom = stack;
  fiber.stackSize = size;
  fiber.fakeStack = nullptr;
}
} // namespace

#if defined(__x86_64__)

extern "C" {
// System V: pushes rbp, rbx, r12-r15 and the MXCSR and x87 control words
// on the running stack, saves its pointer to *from, loads `to` and pops
// the same from it. A prepared fiber's first `ret` enters the trampoline,
// which calls uop_sim_fiber_begin(r12) on a 16-byte aligned stack. Hidden:
// the assembly calls them directly, also in a shared library.
#define UOP_SIM_HIDDEN __attribute__((visibility("hidden")))
UOP_SIM_HIDDEN void uop_sim_fiber_switch(void **from, void *to);
UOP_SIM_HIDDEN void uop_sim_fiber_trampoline();
UOP_SIM_HIDDEN [[noreturn]] void uop_sim_fiber_begin(void (*entry)());
}

asm(R"(
  .text
  .p2align 4
  .globl uop_sim_fiber_switch
  .hidden uop_sim_fiber_switch
  .type uop_sim_fiber_switch,@function
uop_sim_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size uop_sim_fiber_switch, .-uop_sim_fiber_switch

  .p2align 4
  .globl uop_sim_fiber_trampoline
  .hidden uop_sim_fiber_trampoline
  .type uop_sim_fiber_trampoline,@function
uop_sim_fiber_trampoline:
  movq %r12, %rdi
  callq uop_sim_fiber_begin
  ud2
  .size uop_sim_fiber_trampoline, .-uop_sim_fiber_trampoline
)");

void uop_sim_fiber_begin(void (*entry)()) {
  endSwitch(nullptr);
  entry();
  __builtin_trap(); // entry switches away for good instead of returning
}

void prepareFiber(Fiber &fiber, void *stack, size_t size, void (*entry)()) {
  resetStack(fiber, stack, size);
  // From the 16-byte aligned top: 16 bytes unused, the trampoline as the
  // return address (the stack is 16-byte aligned after the `ret`, as before
  // a call), rbp = 0 (the end of a backtrace), rbx, r12 = entry, r13-r15,
  // then the control words: MXCSR's default (round to nearest, no flush to
  // zero: PTX's f32 arithmetic keeps denormals) and the x87's.
  uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + size) & ~uintptr_t(15);
  auto *slot = reinterpret_cast<uint64_t *>(top) - 3;
  slot[1] = slot[2] = 0;
  slot[0] = reinterpret_cast<uint64_t>(&uop_sim_fiber_trampoline);
  uint64_t saved[] = {0x037F'00001F80ull, 0, 0, 0, reinterpret_cast<uint64_t>(entry), 0, 0};
  uint64_t *sp = slot - 7;
  for (int i = 0; i < 7; ++i)
    sp[i] = saved[i];
  fiber.sp = sp;
}

void switchFiber(Fiber &from, Fiber &to, bool exiting) {
  beginSwitch(from, to, exiting);
  uop_sim_fiber_switch(&from.sp, to.sp);
  endSwitch(&from);
}

#else // swapcontext, which also saves the signal mask

namespace {
// The fiber a switch starts: makecontext passes no pointer.
thread_local Fiber *starting = nullptr;
void beginFromContext() {
  void (*entry)() = starting->entry;
  endSwitch(nullptr);
  entry();
  __builtin_trap();
}
} // namespace

void prepareFiber(Fiber &fiber, void *stack, size_t size, void (*entry)()) {
  resetStack(fiber, stack, size);
  getcontext(&fiber.context);
  fiber.context.uc_stack.ss_sp = stack;
  fiber.context.uc_stack.ss_size = size;
  fiber.context.uc_link = nullptr;
  fiber.entry = entry;
  makecontext(&fiber.context, &beginFromContext, 0);
}

void switchFiber(Fiber &from, Fiber &to, bool exiting) {
  beginSwitch(from, to, exiting);
  starting = &to;
  swapcontext(&from.context, &to.context);
  endSwitch(&from);
}

#endif

} // namespace mlir::uop::sim

// One stub per libedit function (symbols.def), under the function's own name: it jumps to the
// real function once libedit is loaded, and the first call loads it (lazyedit.c). A jump keeps
// every argument register and the stack as the caller left them, so one stub serves any
// prototype. Hidden: the executable does not export them, so libedit never binds to them.
#if defined(__x86_64__) && defined(__linux__)
        .text

// Loads libedit (or exits saying what to install), keeping the argument registers.
        .p2align 4
        .type cb_edit_load_keeping_arguments, @function
cb_edit_load_keeping_arguments:
        pushq %rdi
        pushq %rsi
        pushq %rdx
        pushq %rcx
        pushq %r8
        pushq %r9
        pushq %rax
        subq $136, %rsp
        movdqu %xmm0, 0(%rsp)
        movdqu %xmm1, 16(%rsp)
        movdqu %xmm2, 32(%rsp)
        movdqu %xmm3, 48(%rsp)
        movdqu %xmm4, 64(%rsp)
        movdqu %xmm5, 80(%rsp)
        movdqu %xmm6, 96(%rsp)
        movdqu %xmm7, 112(%rsp)
        call cb_edit_load_or_exit
        movdqu 0(%rsp), %xmm0
        movdqu 16(%rsp), %xmm1
        movdqu 32(%rsp), %xmm2
        movdqu 48(%rsp), %xmm3
        movdqu 64(%rsp), %xmm4
        movdqu 80(%rsp), %xmm5
        movdqu 96(%rsp), %xmm6
        movdqu 112(%rsp), %xmm7
        addq $136, %rsp
        popq %rax
        popq %r9
        popq %r8
        popq %rcx
        popq %rdx
        popq %rsi
        popq %rdi
        ret
        .size cb_edit_load_keeping_arguments, .-cb_edit_load_keeping_arguments

.macro STUB name
        .globl \name
        .hidden \name
        .type \name, @function
        .p2align 4
\name:
        movq cb_edit_slot_\name(%rip), %r11
        testq %r11, %r11
        jz 1f
        jmp *%r11
1:      call cb_edit_load_keeping_arguments
        jmp \name
        .size \name, .-\name
.endm

#define X(name) STUB name
#include "symbols.def"
#undef X

        .section .note.GNU-stack,"",@progbits
#endif

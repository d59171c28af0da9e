/* marks.h: byte markers that delimit the analysed region (the IACA convention).
 *
 * IACA_START: movl $111, %ebx ; fs addr32 nop   (bytes BB 6F 00 00 00 64 67 90)
 * IACA_END:   movl $222, %ebx ; fs addr32 nop   (bytes BB DE 00 00 00 64 67 90)
 *
 * Usage (as with Intel's IACA): put IACA_START at the top of the innermost loop's body and
 * IACA_END right after the loop. The region then holds one iteration of the loop body and the
 * loop's backward branch. The asm clobbers %ebx and memory so the compiler keeps the markers
 * in place; note that an asm statement inside a loop stops the auto-vectoriser (kernels that
 * want packed code use the explicit vector types of vec.h instead).
 */
#ifndef UOPSCOPE_MARKS_H
#define UOPSCOPE_MARKS_H

#define IACA_START __asm__ __volatile__("movl $111, %%ebx\n\t.byte 0x64, 0x67, 0x90" ::: "ebx", "memory")
#define IACA_END   __asm__ __volatile__("movl $222, %%ebx\n\t.byte 0x64, 0x67, 0x90" ::: "ebx", "memory")

#endif

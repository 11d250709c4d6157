/*
 * A disassembler plugin for HotSpot (hsdis-amd64.so), over binutils' libopcodes, so that
 * -XX:+PrintAssembly and JMH's perfasm profiler can show the JIT's x86-64 code. HotSpot looks
 * for the library in the JDK's lib/server and lib folders, then by name (LD_LIBRARY_PATH).
 * Build (Debian: apt-get install binutils-dev):
 *   gcc -O2 -shared -fPIC -o benchmarks/target/hsdis-amd64.so benchmarks/hsdis/hsdis.c -lopcodes -lbfd
 * It implements HotSpot's decode_instructions_virtual entry point: for each instruction it
 * reports the "insn" and "/insn" events with its addresses (HotSpot prints the addresses and
 * its own annotations) and prints the instruction in Intel syntax.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <bfd.h>
#include <dis-asm.h>

typedef void *(*event_callback)(void *stream, const char *event, void *arg);
typedef int (*printf_callback)(void *stream, const char *format, ...);

/* One instruction's text, gathered from libopcodes' printing calls. */
struct text {
    char chars[512];
    size_t length;
};

static int append(struct text *t, const char *format, va_list args) {
    int n = vsnprintf(t->chars + t->length, sizeof t->chars - t->length, format, args);
    if (n > 0) {
        t->length += (size_t) n;
        if (t->length >= sizeof t->chars) {
            t->length = sizeof t->chars - 1;
        }
    }
    return n;
}

static int print_plain(void *stream, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = append(stream, format, args);
    va_end(args);
    return n;
}

static int print_styled(void *stream, enum disassembler_style style, const char *format, ...) {
    (void) style;
    va_list args;
    va_start(args, format);
    int n = append(stream, format, args);
    va_end(args);
    return n;
}

static void print_address(bfd_vma address, struct disassemble_info *info) {
    print_plain(info->stream, "0x%lx", (unsigned long) address);
}

void *decode_instructions_virtual(uintptr_t start_va, uintptr_t end_va, unsigned char *buffer, uintptr_t length,
                                  event_callback event, void *event_stream,
                                  printf_callback print, void *print_stream,
                                  const char *options, int newline) {
    (void) options;
    struct text t;
    struct disassemble_info info;
    init_disassemble_info(&info, &t, print_plain, print_styled);
    info.arch = bfd_arch_i386;
    info.mach = bfd_mach_x86_64_intel_syntax;
    info.buffer = buffer;
    info.buffer_vma = start_va;
    info.buffer_length = length;
    info.print_address_func = print_address;
    disassemble_init_for_target(&info);
    disassembler_ftype disassemble = disassembler(bfd_arch_i386, 0, bfd_mach_x86_64_intel_syntax, NULL);
    uintptr_t at = start_va;
    while (at < end_va) {
        t.length = 0;
        t.chars[0] = '\0';
        event(event_stream, "insn", (void *) at);
        int size = disassemble(at, &info);
        /* A byte it cannot decode is stepped over, so the rest still prints. */
        at += size > 0 ? (uintptr_t) size : 1;
        print(print_stream, "%s", t.chars);
        event(event_stream, "/insn", (void *) at);
        if (newline) {
            print(print_stream, "\n");
        }
    }
    return (void *) at;
}

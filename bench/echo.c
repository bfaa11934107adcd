/* The floor of a stdio round trip: copy stdin to stdout as soon as bytes arrive.
   A client that writes a request and waits for its echo measures pipe + scheduling cost only,
   whichever framing it speaks (the echo is byte-for-byte). */
#include <unistd.h>

int main(void) {
    char buf[65536];
    for (;;) {
        ssize_t n = read(0, buf, sizeof buf);
        if (n <= 0) return 0;
        for (ssize_t off = 0; off < n;) {
            ssize_t w = write(1, buf + off, (size_t)(n - off));
            if (w <= 0) return 1;
            off += w;
        }
    }
}

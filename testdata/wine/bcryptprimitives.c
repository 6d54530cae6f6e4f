/*
 * bcryptprimitives.dll for Wine 8, which has none: Go 1.26 programs take
 * their random bytes from ProcessPrng and refuse to start without it.
 * ProcessPrng fills the buffer from RtlGenRandom (SystemFunction036 in
 * advapi32), which Wine implements, in pieces of at most 1 MB because
 * RtlGenRandom takes a 32-bit length. Like Windows' own, it never fails:
 * Go's runtime treats a failure as fatal, so a failure here aborts the
 * process.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	while (size > 0) {
		ULONG n = size > (1u << 20) ? (1u << 20) : (ULONG)size;
		if (!SystemFunction036(data, n))
			ExitProcess(3);
		data += n;
		size -= n;
	}
	return TRUE;
}

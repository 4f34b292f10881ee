/*
 * A stand-in bcryptprimitives.dll for the wine check only (make wine-check
 * copies it into the wine prefix, never into a release). Go 1.24 and later
 * take their random numbers from ProcessPrng in bcryptprimitives.dll, which
 * every Windows 10 and 11 has but Debian 12's wine 8.0 lacks; without it a
 * Go program dies before main. This one answers from RtlGenRandom.
 */
#include <windows.h>
#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	while (size > 0) {
		ULONG n = size > 0x40000000 ? 0x40000000 : (ULONG)size;
		if (!RtlGenRandom(data, n))
			return FALSE;
		data += n;
		size -= n;
	}
	return TRUE;
}

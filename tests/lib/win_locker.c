/* tests/lib/win_locker.c FILE READY STOP - a Windows program (built with mingw-w64 by
   tests/t_windows.sh, run under Wine) that holds FILE open with no sharing at all, as an editor or
   a running program may: creates READY once it holds it, closes it when STOP appears (60 s at
   most). Exit 0, or 1 when FILE cannot be opened, 2 for usage. */
#include <windows.h>

int wmain(int argc, wchar_t **argv) {
    HANDLE held, ready;
    int tick;

    if (argc != 4)
        return 2;
    held = CreateFileW(argv[1], GENERIC_READ, 0, NULL, OPEN_EXISTING, 0, NULL);
    if (held == INVALID_HANDLE_VALUE)
        return 1;
    ready = CreateFileW(argv[2], GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, 0, NULL);
    if (ready != INVALID_HANDLE_VALUE)
        CloseHandle(ready);
    for (tick = 0; tick < 1200 && GetFileAttributesW(argv[3]) == INVALID_FILE_ATTRIBUTES; tick++)
        Sleep(50);
    CloseHandle(held);
    return 0;
}

# Real hosts (examples/host.c, examples/android_host.c, examples/mono_host.c + examples/hello, examples/coreclr_host.c + hello_clr):
# the Makefile builds build/host, build/coreclr_host and mono-host for `make`, and mono-host +
# coreclr-host before `make test` and `make demo` (tests/t_host_mono.sh, tests/t_host_coreclr.sh run them).
#   build/host              the minimal host (dlopen + reader + cache), built by `make`
#   build/android_host      dotnet/android's host on the app's libxamarin-app.so buffers
#                           (asmstore_app_load), built by `make`; tests/t_host_android.sh runs it
#   build/mono_host         Mono embedding host, built by `make` when pkg-config finds mono-2 and mcs exists
#   build/hello/hello.exe   the C# program it runs (+ Greeting.dll, its own library), compiled with mcs
#   build/coreclr_host      CoreCLR host (dlopens the installed libcoreclr.so at run time), built by `make`
#   build/asan/coreclr_host the same under ASan + UBSan (tests/t_host_coreclr.sh), with coreclr-host
#   build/hello_clr/hello.dll  the .NET program it runs (+ Greeting.dll), built offline by `dotnet build`
#                           for make test / demo / bench when `dotnet` is on PATH (the SDK is not a Debian
#                           package: https://learn.microsoft.com/dotnet/core/install/linux)
HOST_HDRS = asmstore.h asmstore_cache.h examples/host_arena.h examples/host_memory.h examples/host_phases.h \
            examples/host_private_dir.h examples/host_util.h

$(B)/host: examples/host.c $(HOST_HDRS) | $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -D_GNU_SOURCE -o $@ examples/host.c $(LIBS) -ldl

$(B)/android_host: examples/android_host.c asmstore.h | $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -D_GNU_SOURCE -o $@ examples/android_host.c -lzstd -ldl

# Mono: headers as system headers (-isystem) so our warning flags apply to our code only.
HAVE_MONO  := $(shell pkg-config --exists mono-2 2>/dev/null && command -v mcs >/dev/null 2>&1 && echo 1)
MONO_CFLAGS = $(patsubst -I%,-isystem %,$(shell pkg-config --cflags mono-2 2>/dev/null))
MONO_LIBS   = $(shell pkg-config --libs mono-2 2>/dev/null)
HELLO_SRC   = examples/hello/Program.cs examples/hello/Greeting.cs

$(B)/mono_host: examples/mono_host.c $(HOST_HDRS) | $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -D_GNU_SOURCE $(MONO_CFLAGS) -o $@ examples/mono_host.c $(MONO_LIBS) $(LIBS) -ldl

$(B)/hello/Greeting.dll: examples/hello/Greeting.cs | $(B)
	mkdir -p $(B)/hello
	mcs -nologo -target:library -r:System.Core.dll -out:$@ $<

$(B)/hello/hello.exe: examples/hello/Program.cs $(B)/hello/Greeting.dll
	mcs -nologo -r:$(B)/hello/Greeting.dll -r:System.Core.dll -r:System.Xml.dll -r:System.Xml.Linq.dll -out:$@ $<

.PHONY: mono-host
ifeq ($(HAVE_MONO),1)
mono-host: $(B)/mono_host $(B)/hello/hello.exe
else
mono-host:
	@echo "  SKIP mono_host: libmono-2.0-dev (pkg-config mono-2) or mcs (mono-devel) not installed"
endif

# ---- CoreCLR: the host needs no .NET to build; the program needs the SDK (offline: no package
# references, restore sees no feed but the project's own directory). ----

$(B)/coreclr_host: examples/coreclr_host.c $(HOST_HDRS) | $(B)
	$(CC) $(STD) $(WARN) $(CFLAGS) -D_GNU_SOURCE -o $@ examples/coreclr_host.c $(LIBS) -ldl

# the same under ASan + UBSan, for tests/t_host_coreclr.sh's door cases (misaligned images, a truncated pack)
$(B)/asan/coreclr_host: examples/coreclr_host.c $(HOST_HDRS) | $(B)
	@mkdir -p $(B)/asan
	$(CC) $(STD) $(WARN) -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
	  -D_GNU_SOURCE -o $@ examples/coreclr_host.c $(LIBS) -ldl

HAVE_DOTNET   := $(shell command -v dotnet >/dev/null 2>&1 && echo 1)
HELLO_CLR_SRC  = examples/hello_clr/hello.csproj examples/hello_clr/Program.cs \
                 examples/hello_clr/Greeting/Greeting.csproj examples/hello/Greeting.cs
DOTNET_BUILD   = DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 \
                 DOTNET_CLI_HOME=$(abspath $(B))/hello_clr.obj/home NUGET_PACKAGES=$(abspath $(B))/hello_clr.obj/packages \
                 dotnet build -c Release -nologo -v quiet

$(B)/hello_clr/hello.dll: $(HELLO_CLR_SRC) | $(B)
	$(DOTNET_BUILD) examples/hello_clr/hello.csproj -o $(B)/hello_clr --artifacts-path $(B)/hello_clr.obj

.PHONY: coreclr-host
ifeq ($(HAVE_DOTNET),1)
coreclr-host: $(B)/coreclr_host $(B)/asan/coreclr_host $(B)/hello_clr/hello.dll
else
coreclr-host: $(B)/coreclr_host $(B)/asan/coreclr_host
	@echo "  SKIP hello_clr: no dotnet on PATH (the .NET SDK: https://learn.microsoft.com/dotnet/core/install/linux)"
endif

# .NET packages from a NuGet feed, for tests/t_host_composite.sh (and later runs of coreclr_host):
#   make runtime-net11    build/runtime-net11/: Microsoft.NETCore.App.Runtime.linux-x64 11.0.0 as a flat
#                         runtime directory (what an installed shared/Microsoft.NETCore.App/<version>/
#                         holds: libcoreclr.so, libclrjit.so, libSystem.*.so, every framework .dll),
#                         symlinks into the restored package (tests/lib/runtime_dir.sh)
#   make composite-net10  build/composite/: the installed .NET 10 framework + build/hello_clr's hello.dll and
#                         Greeting.dll compiled by crossgen2 (Microsoft.NETCore.App.Crossgen2.linux-x64
#                         10.0.12) into one composite R2R image, hello.r2r.dll, plus one component stub
#                         per input under the input's name (tests/lib/composite_build.sh)
# Packages go to build/nuget (NUGET_PACKAGES), the CLI's state to build/dotnet.home, telemetry off (as
# mk/hosts.mk's DOTNET_BUILD). Each target keeps a stamp and does nothing when it is current; without
# dotnet or a feed it prints one line saying why and succeeds, leaving nothing half-made.
# DOTNET_TEST_NEEDS: what `make test` builds first: runtime-net11 (a restore, ~7 s cold, <0.1 s warm) and
# composite-net10 (crossgen2: 4-9 min on 2 cores cold, a stamp check warm), so that tests/t_host_composite.sh runs the
# composite from files and from stores in CI too; COMPOSITE_TEST=0 leaves it out (t_host_composite.sh then skips it).
COMPOSITE_TEST ?= 1
DOTNET_PKG_ENV = DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 \
                 DOTNET_CLI_HOME=$(abspath $(B))/dotnet.home NUGET_PACKAGES=$(abspath $(B))/nuget
RUNTIME_NET11_VERSION  = 11.0.0
CROSSGEN2_VERSION      = 10.0.12
DOTNET_TEST_NEEDS      = runtime-net11 identity-ref $(if $(filter 1,$(COMPOSITE_TEST)),composite-net10)

.PHONY: runtime-net11 composite-net10 identity-ref
# build/identity_ref/bin/identity_ref.dll: System.Reflection.Metadata's view of assemblies, the reference
# tests/t_identity.sh holds asmstore_pe_identity to (offline: the SDK's own targeting pack, ~6 s)
IDENTITY_REF_SRC = tests/lib/identity_ref/identity_ref.csproj tests/lib/identity_ref/Program.cs
identity-ref: | $(B)
	@if ! command -v dotnet >/dev/null 2>&1; then echo "  SKIP identity-ref: no dotnet on PATH"; \
	elif [ ! -e $(B)/identity_ref/bin/identity_ref.dll ] || \
	     [ -n "$$(find $(IDENTITY_REF_SRC) -newer $(B)/identity_ref/bin/identity_ref.dll)" ]; then \
	  $(DOTNET_PKG_ENV) dotnet build -c Release -nologo -v quiet tests/lib/identity_ref/identity_ref.csproj \
	    -o $(B)/identity_ref/bin --artifacts-path $(B)/identity_ref/obj >$(B)/identity_ref.log 2>&1 || \
	    { cat $(B)/identity_ref.log; exit 1; }; fi
runtime-net11: | $(B)
	@$(DOTNET_PKG_ENV) tests/lib/runtime_dir.sh $(B)/runtime-net11 $(RUNTIME_NET11_VERSION) net11.0

# coreclr-host builds build/hello_clr/hello.dll when dotnet exists (mk/hosts.mk)
composite-net10: coreclr-host | $(B)
	@$(DOTNET_PKG_ENV) tests/lib/composite_build.sh $(B)/composite $(CROSSGEN2_VERSION) $(B)/hello_clr/hello.dll $(B)/hello_clr/Greeting.dll

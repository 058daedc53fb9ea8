/* tests/lib/app_lib32.c - a libxamarin-app.so shaped like dotnet/android's generator output
   (src/native/mono/xamarin-app-stub/xamarin-app.hh; docs/store-releases.md §3.2), for the 32-bit
   ABIs no real sample covers. t_app_cross.sh compiles it with the i686 and armhf cross gcc, linked
   by lld against the stand-in bionic libc.so (tests/lib/standin_libc.c), as
     -DAPP_NET10  .NET 10+: compressed_assembly_count, compressed_assembly_descriptors (12 bytes,
                  a u32 offset into the buffer), uncompressed_assemblies_data_size/_buffer
     (default)    .NET 6-8: compressed_assemblies {u32 count; descriptors *}, the descriptors and
                  their per-entry buffers internal, so each pointer is an R_*_RELATIVE relocation
     -DAPP_NET9   .NET 9: the same table, format_tag 2
     -DAPP_CORECLR  CoreCLR .NET 10+ (src/native/clr/include/xamarin-app.hh): the .NET 10 table,
                  CoreCLR's ApplicationConfig and init_runtime_property_names[] (its library's
                  alone); t_app_cross.sh also builds this one for x86_64, natively
   The sizes are the test's expectations: change them there too. */
#include <stdint.h>

#if defined(APP_CORECLR) && !defined(APP_NET10)
#define APP_NET10
#endif

int puts(const char *s);
void abort(void) __attribute__((noreturn));

#define SIZE0 3000u
#define SIZE1 70000u
#define SIZE2 1234u
#ifdef APP_CORECLR
#define ASSEMBLIES 3u /* one slot per store entry, as the build sizes it: an --add needs more */
#else
#define ASSEMBLIES 5u
#endif

/* One slot per assembly: image, debug info, config, descriptor pointers, set by the runtime. */
typedef struct AssemblyStoreSingleAssemblyRuntimeData {
    uint8_t *image_data;
    uint8_t *debug_info_data;
    uint8_t *config_data;
    void *descriptor;
} AssemblyStoreSingleAssemblyRuntimeData;

#if defined(APP_NET10) || defined(APP_NET9)
const uint64_t format_tag = 0x00025E6972616D58ull;
#else
const uint64_t format_tag = 0x00015E6972616D58ull;
#endif

#ifdef APP_CORECLR
/* CoreCLR's ApplicationConfig up to android_package_name: four flag bytes, then the counts. */
typedef struct ApplicationConfig {
    _Bool flags[4];
    uint32_t number_of_runtime_properties;
    uint32_t package_naming_policy;
    uint32_t environment_variable_count;
    uint32_t system_property_count;
    uint32_t number_of_assemblies_in_apk;
    uint32_t bundled_assembly_name_width;
    uint32_t number_of_dso_cache_entries;
    uint32_t number_of_aot_cache_entries;
    uint32_t number_of_shared_libraries;
    const char *android_package_name;
} ApplicationConfig;

const ApplicationConfig application_config = {
    {0}, 0, 0, 0, 0, ASSEMBLIES, 40, 0, 0, 0, "com.example.appclr",
};

const char *init_runtime_property_names[] = {"APP_CONTEXT_BASE_DIRECTORY", 0};
#else
/* xamarin-app.hh's ApplicationConfig up to android_package_name (its counts are u32s after eleven
   flag bytes on every ABI; the pointer is 4 bytes here). */
typedef struct ApplicationConfig {
    _Bool flags[10];
    uint8_t bound_stream_io_exception_type;
    uint32_t package_naming_policy;
    uint32_t environment_variable_count;
    uint32_t system_property_count;
    uint32_t number_of_assemblies_in_apk;
    uint32_t bundled_assembly_name_width;
    uint32_t number_of_assembly_store_files;
    uint32_t number_of_dso_cache_entries;
    uint32_t mono_components_mask;
    const char *android_package_name;
} ApplicationConfig;

const ApplicationConfig application_config = {
    {0}, 0, 0, 0, 0, ASSEMBLIES, 40, 2, 0, 0, "com.example.app32",
};
#endif

AssemblyStoreSingleAssemblyRuntimeData assembly_store_bundled_assemblies[ASSEMBLIES];

#ifdef APP_NET10
typedef struct CompressedAssemblyDescriptor {
    uint32_t uncompressed_file_size;
    _Bool loaded;
    uint32_t buffer_offset;
} CompressedAssemblyDescriptor;

uint32_t compressed_assembly_count = 3;
CompressedAssemblyDescriptor compressed_assembly_descriptors[3] = {
    {SIZE0, 0, 0}, {SIZE1, 0, SIZE0}, {SIZE2, 0, SIZE0 + SIZE1},
};
uint32_t uncompressed_assemblies_data_size = SIZE0 + SIZE1 + SIZE2;
uint8_t uncompressed_assemblies_data_buffer[SIZE0 + SIZE1 + SIZE2];
#else
typedef struct CompressedAssemblyDescriptor {
    uint32_t uncompressed_file_size;
    _Bool loaded;
    uint8_t *data;
} CompressedAssemblyDescriptor;

typedef struct CompressedAssemblies {
    uint32_t count;
    CompressedAssemblyDescriptor *descriptors;
} CompressedAssemblies;

static uint8_t compressed_assembly_data_0[SIZE0];
static uint8_t compressed_assembly_data_1[SIZE1];
static uint8_t compressed_assembly_data_2[SIZE2];
static CompressedAssemblyDescriptor compressed_assembly_descriptors[3] = {
    {SIZE0, 0, compressed_assembly_data_0},
    {SIZE1, 0, compressed_assembly_data_1},
    {SIZE2, 0, compressed_assembly_data_2},
};
CompressedAssemblies compressed_assemblies = {3, compressed_assembly_descriptors};
#endif

/* The generator's library imports puts and abort from bionic; so does this one. */
void xamarin_app_init(int fail);
void xamarin_app_init(int fail) {
    if (fail) {
        puts("xamarin_app_init: failed");
        abort();
    }
}

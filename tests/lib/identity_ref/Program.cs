// identity_ref FILE... : one JSON line per .NET assembly, {"file", "name", "version", "culture",
// "public_key_token", "mvid", "timestamp", "debug_id", "pdb_path", "pdb_checksum"}, as
// System.Reflection.Metadata reads them; files that are no assembly are left out.
using System;
using System.IO;
using System.Linq;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Text.Json;

static class IdentityRef {
    static string Hex(byte[] b) => b == null || b.Length == 0 ? null : Convert.ToHexString(b).ToLowerInvariant();

    static void Main(string[] files) {
        foreach (string file in files) {
            using var stream = File.OpenRead(file);
            using var pe = new PEReader(stream);
            if (!pe.HasMetadata) continue;
            MetadataReader md = pe.GetMetadataReader();
            if (!md.IsAssembly) continue;
            AssemblyDefinition a = md.GetAssemblyDefinition();
            System.Reflection.AssemblyName an = a.GetAssemblyName();
            string culture = md.GetString(a.Culture);
            string debugId = null, pdbPath = null, checksum = null;
            foreach (DebugDirectoryEntry d in pe.ReadDebugDirectory()) {
                if (d.Type == DebugDirectoryEntryType.CodeView && debugId == null) {
                    CodeViewDebugDirectoryData cv = pe.ReadCodeViewDebugDirectoryData(d);
                    uint appendix = d.IsPortableCodeView ? d.Stamp : (uint)cv.Age;
                    debugId = appendix == 0 ? cv.Guid.ToString() : $"{cv.Guid}-{appendix:x}";
                    pdbPath = cv.Path;
                } else if (d.Type == DebugDirectoryEntryType.PdbChecksum && checksum == null) {
                    PdbChecksumDebugDirectoryData c = pe.ReadPdbChecksumDebugDirectoryData(d);
                    checksum = c.AlgorithmName + ":" + Hex(c.Checksum.ToArray());
                }
            }
            var line = new {
                file = Path.GetFileName(file),
                name = md.GetString(a.Name),
                version = a.Version.ToString(),
                culture = culture.Length == 0 ? null : culture,
                public_key_token = Hex(an.GetPublicKeyToken()),
                mvid = md.GetGuid(md.GetModuleDefinition().Mvid).ToString(),
                timestamp = (uint)pe.PEHeaders.CoffHeader.TimeDateStamp,
                debug_id = debugId,
                pdb_path = pdbPath,
                pdb_checksum = checksum,
            };
            Console.WriteLine(JsonSerializer.Serialize(line));
        }
    }
}

// hello.dll (.NET): the C# program build/coreclr_host runs on CoreCLR with every assembly,
// System.Private.CoreLib included, out of an assembly store. It prints its arguments and does real
// work across several framework assemblies: LINQ (System.Linq), JSON (System.Text.Json), a regex
// (System.Text.RegularExpressions), XML (System.Xml.Linq over System.Private.Xml), its own library
// (Greeting.dll). Its output is deterministic: tests/t_host_coreclr.sh compares it line by line.
//   hello [--exit N] [ARGS...]   exits with N (default 0)
//   hello --time-to-main         prints "main-at NS" (CLOCK_MONOTONIC, what Stopwatch reads on Linux)
//                                and returns at once: make bench's time to Main
//   hello --argv0                prints "argv0 " + Environment.GetCommandLineArgs()[0] and "base " +
//                                AppContext.BaseDirectory: what the host's exe_path changes
//   hello --busy-at-exit         returns from Main while a background thread keeps reading metadata and
//                                IL of every loaded assembly: what a host must not unmap after shutdown
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Text;
using System.Text.Json;
using System.Text.RegularExpressions;
using System.Xml.Linq;
using Hello;

static class Program
{
    static int Main(string[] args)
    {
        if (args.Length == 1 && args[0] == "--time-to-main")
        {
            long ns = (long)(Stopwatch.GetTimestamp() * (1e9 / Stopwatch.Frequency));
            Console.WriteLine("main-at " + ns.ToString(CultureInfo.InvariantCulture));
            return 0;
        }
        if (args.Length == 1 && args[0] == "--argv0")
        {
            // what the host's exe_path makes of the program's own name (tests/t_host_coreclr.sh)
            Console.WriteLine("argv0 " + Environment.GetCommandLineArgs()[0]);
            Console.WriteLine("base " + AppContext.BaseDirectory);
            return 0;
        }
        if (args.Length == 1 && args[0] == "--busy-at-exit")
            return BusyAtExit();
        return Run(args);
    }

    // A background thread survives coreclr_shutdown_2; it reads the images until the process is gone.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int BusyAtExit()
    {
        var started = new System.Threading.ManualResetEventSlim();
        var reader = new System.Threading.Thread(() =>
        {
            started.Set();
            for (long bytes = 0; ; bytes = 0)
                foreach (var asm in AppDomain.CurrentDomain.GetAssemblies())
                    foreach (var type in asm.GetTypes())
                        foreach (var method in type.GetMethods(System.Reflection.BindingFlags.DeclaredOnly |
                                     System.Reflection.BindingFlags.Public | System.Reflection.BindingFlags.NonPublic |
                                     System.Reflection.BindingFlags.Instance | System.Reflection.BindingFlags.Static))
                            bytes += method.GetMethodBody()?.GetILAsByteArray()?.Length ?? 0;
        }) { IsBackground = true };
        reader.Start();
        started.Wait();
        Console.WriteLine("busy at exit");
        return 0;
    }

    // Kept out of Main so that compiling Main loads nothing but what the timestamp needs.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Run(string[] args)
    {
        CultureInfo.CurrentCulture = CultureInfo.InvariantCulture;
        Console.WriteLine("args: " + args.Length + string.Concat(args.Select((a, i) => " [" + i + "]=" + a)));
        Console.WriteLine(Greeting.Line(args.Length > 0 ? args[0] : "world"));

        // LINQ over the library's prime generator
        int[] primes = Greeting.Primes(12).ToArray();
        Console.WriteLine("primes: " + string.Join(" ", primes));
        Console.WriteLine("sum of squares: " + primes.Select(p => (long)p * p).Sum());

        // System.Text.Json: the primes grouped by last digit, serialized, parsed back and summed
        var byDigit = primes.GroupBy(p => p % 10).OrderBy(g => g.Key)
                            .ToDictionary(g => g.Key.ToString(), g => g.ToArray());
        string json = JsonSerializer.Serialize(byDigit);
        Console.WriteLine("json: " + json);
        using (JsonDocument doc = JsonDocument.Parse(json))
        {
            int sum = doc.RootElement.EnumerateObject().SelectMany(p => p.Value.EnumerateArray()).Sum(v => v.GetInt32());
            Console.WriteLine("json parsed back: " + doc.RootElement.EnumerateObject().Count() + " groups, sum " + sum);
        }

        // System.Text.RegularExpressions: key=value pairs out of a line of text
        const string line = "store=libassembly-store.so abi=x86_64 runtime=coreclr format=3 entries=346";
        var pairs = Regex.Matches(line, @"(\w+)=([\w.-]+)").Cast<Match>()
                         .ToDictionary(m => m.Groups[1].Value, m => m.Groups[2].Value);
        Console.WriteLine("regex: " + pairs.Count + " pairs, runtime=" + pairs["runtime"] + ", numbers " +
                          Regex.Replace(line, @"\D+", " ").Trim());

        // System.Xml.Linq: a document from the JSON groups, queried
        var xml = new XDocument(new XElement("store",
            byDigit.Select(kv => new XElement("digit", new XAttribute("last", kv.Key),
                                              kv.Value.Select(p => new XElement("p", p))))));
        XElement busiest = xml.Root.Elements("digit").OrderByDescending(e => e.Elements("p").Count()).First();
        Console.WriteLine("xml: " + xml.Root.ToString(SaveOptions.DisableFormatting).Length + " chars, " +
                          xml.Descendants("p").Count() + " <p> elements, busiest last digit " + (string)busiest.Attribute("last"));

        // a hash over UTF-8 bytes, and the assemblies this run loaded
        uint h = 2166136261;
        foreach (byte b in Encoding.UTF8.GetBytes(xml.ToString())) { h ^= b; h *= 16777619; }
        Console.WriteLine("fnv1a: " + h.ToString("x8"));
        IEnumerable<string> loaded = AppDomain.CurrentDomain.GetAssemblies().Select(a => a.GetName().Name)
                                              .OrderBy(n => n, StringComparer.Ordinal);
        Console.WriteLine("loaded: " + string.Join(" ", loaded));

        int exit = Array.IndexOf(args, "--exit");
        return exit >= 0 && exit + 1 < args.Length ? int.Parse(args[exit + 1]) : 0;
    }
}

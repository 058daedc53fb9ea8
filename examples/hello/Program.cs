// hello.exe: a small program whose every assembly (mscorlib, System, System.Core, System.Xml,
// System.Xml.Linq and its own Greeting.dll) the Mono host loads out of an assembly store.
// Its output is deterministic: tests/t_host_mono.sh compares it line by line.
//   hello.exe [NAME]           the run above
//   hello.exe --time-to-main   prints "main-at NS" (CLOCK_MONOTONIC: Mono's Stopwatch on Linux) and
//                              returns at once: make bench's time to Main (as examples/hello_clr)
using System;
using System.Diagnostics;
using System.Globalization;
using System.Linq;
using System.Runtime.CompilerServices;
using System.Text;
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
        return Run(args);
    }

    // Kept out of Main so that compiling Main loads nothing but what the timestamp needs.
    [MethodImpl(MethodImplOptions.NoInlining)]
    static int Run(string[] args)
    {
        Console.WriteLine(Greeting.Line(args.Length > 0 ? args[0] : "world"));

        // System.Core: LINQ over the library's prime generator
        var primes = Greeting.Primes(12).ToArray();
        Console.WriteLine("primes: " + string.Join(" ", primes));
        Console.WriteLine("sum of squares: " + primes.Select(p => (long)p * p).Sum());

        // System.Xml.Linq (+ System.Xml underneath): build a document, query it, print it
        var doc = new XDocument(
            new XElement("store",
                primes.GroupBy(p => p % 10).OrderBy(g => g.Key).Select(g =>
                    new XElement("digit", new XAttribute("last", g.Key),
                        g.Select(p => new XElement("p", p))))));
        var busiest = doc.Root.Elements("digit")
            .OrderByDescending(e => e.Elements("p").Count())
            .ThenBy(e => (int)e.Attribute("last"))
            .First();
        Console.WriteLine("most primes end in " + (int)busiest.Attribute("last") + ": " +
                          string.Join(",", busiest.Elements("p").Select(e => (string)e)));
        Console.WriteLine("xml: " + doc.Root.ToString(SaveOptions.DisableFormatting).Length + " chars, " +
                          doc.Descendants("p").Count() + " <p> elements");

        // mscorlib: a hash over UTF-8 bytes, and the assemblies this run loaded
        var bytes = Encoding.UTF8.GetBytes(doc.ToString());
        uint h = 2166136261;
        foreach (var b in bytes) { h ^= b; h *= 16777619; }
        Console.WriteLine("fnv1a: " + h.ToString("x8"));
        var loaded = AppDomain.CurrentDomain.GetAssemblies().Select(a => a.GetName().Name).OrderBy(n => n, StringComparer.Ordinal);
        Console.WriteLine("loaded: " + string.Join(" ", loaded));
        return 0;
    }
}

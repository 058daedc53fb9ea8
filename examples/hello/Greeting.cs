// Greeting.dll: the program's own library, packed into the store next to hello.exe.
using System.Collections.Generic;
using System.Linq;

namespace Hello
{
    public static class Greeting
    {
        // The first n primes, by trial division over a LINQ range (System.Core).
        public static IEnumerable<int> Primes(int n)
        {
            return Enumerable.Range(2, int.MaxValue - 2)
                .Where(k => Enumerable.Range(2, (int)System.Math.Sqrt(k) - 1).All(d => k % d != 0))
                .Take(n);
        }

        public static string Line(string who) { return "hello, " + who + ", from an assembly store"; }
    }
}

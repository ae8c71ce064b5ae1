import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which machine instructions of the JIT-compiled code the samples of one thread land on, for loops bound by memory
 * latency: a sampling profiler's timer interrupt lands on the instruction that waits (a load that missed, or the
 * first use of its value), so the hottest instructions show which loads stall, where method- or line-level profiles
 * (JFR) smear them over the inlined caller. It reads a HotSpot log of the compiled methods' code (the JVM run with
 * {@code -XX:CompileCommand=print,...}, which without the hsdis plug-in prints the code as hex bytes with the pc
 * descriptors' bytecode and line comments), and the samples' instruction pointers ({@code perf script -F
 * comm,tid,ip}); it disassembles each method's code with {@code objdump} and prints the samples by method, then for
 * the top methods each instruction with its samples, the nearest source line the JIT recorded before it, and the
 * code around the hottest ones. bench/hot-instructions.sh runs it all for a scenario.
 *
 * <p>Usage: {@code java bench/HotInstructions.java JVM.log SAMPLES.txt THREAD [METHODS] [MIN_SHARE]}: THREAD is the
 * comm perf gives the sampled thread (the main thread's is "java"); METHODS the number of methods shown instruction
 * by instruction (default 6); MIN_SHARE the share of a method's samples from which an instruction is listed with its
 * context (default 0.03).
 */
public class HotInstructions {
    private static final Pattern COMPILED = Pattern.compile(
            "^Compiled method \\((c[12])\\)\\s+\\d+\\s+\\d+\\s+(?:[%sbn!]+\\s+)*\\d\\s+(\\S+)( @ \\d+)?");
    private static final Pattern MAIN_CODE = Pattern.compile("^ main code\\s+\\[0x([0-9a-f]+),0x([0-9a-f]+)\\]");
    private static final Pattern ADDRESS = Pattern.compile("^\\s+0x([0-9a-f]+): (.*)$");
    private static final Pattern HEX = Pattern.compile("[0-9a-f| ]+");
    private static final Pattern COMMENT = Pattern.compile("^\\s+;(.*)$");
    private static final Pattern SOURCE = Pattern.compile("- (?:\\(reexecute\\) )?(\\S+)@(\\d+) \\(line (\\d+)\\)");
    private static final Pattern OBJDUMP = Pattern.compile("^\\s+([0-9a-f]+):\\s+((?:[0-9a-f]{2} )+)\\s*(.*)$");

    /** One compiled method: its code's address range, its bytes, and the JIT's comments by address. */
    static final class Method {
        final String tier;
        final String name;
        long start = -1;
        long end = -1;
        final TreeMap<Long, Integer> bytes = new TreeMap<>();
        final TreeMap<Long, List<String>> comments = new TreeMap<>();
        long samples;

        Method(String tier, String name) {
            this.tier = tier;
            this.name = name;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: java bench/HotInstructions.java JVM.log SAMPLES.txt THREAD [METHODS] [MIN_SHARE]");
            System.exit(2);
        }
        List<Method> methods = readMethods(Path.of(args[0]));
        String thread = args[2];
        int shown = args.length > 3 ? Integer.parseInt(args[3]) : 6;
        double minShare = args.length > 4 ? Double.parseDouble(args[4]) : 0.03;
        methods.sort(Comparator.comparingLong(m -> m.start));
        long[] starts = methods.stream().mapToLong(m -> m.start).toArray();
        Map<Long, Long> byAddress = new HashMap<>();
        long total = 0;
        long elsewhere = 0;
        try (BufferedReader in = Files.newBufferedReader(Path.of(args[1]))) {
            for (String line; (line = in.readLine()) != null; ) {
                String[] f = line.trim().split("\\s+");
                // comm may contain spaces: the tid and ip are the last two fields
                if (f.length < 3 || !String.join(" ", Arrays.copyOf(f, f.length - 2)).equals(thread)) {
                    continue;
                }
                long ip = Long.parseUnsignedLong(f[f.length - 1], 16);
                total++;
                int k = Arrays.binarySearch(starts, ip);
                k = k >= 0 ? k : -k - 2;
                if (k < 0 || ip >= methods.get(k).end) {
                    elsewhere++;
                    continue;
                }
                methods.get(k).samples++;
                byAddress.merge(ip, 1L, Long::sum);
            }
        }
        System.out.printf("thread %s: %d samples, %d outside the printed compiled methods (interpreter, runtime, "
                + "collector, kernel, unprinted code)%n%n", thread, total, elsewhere);
        List<Method> hot = new ArrayList<>(methods);
        hot.sort(Comparator.comparingLong((Method m) -> -m.samples));
        for (Method m : hot.subList(0, Math.min(25, hot.size()))) {
            if (m.samples > 0) {
                System.out.printf("%7d %5.1f%%  %s %s%n", m.samples, 100.0 * m.samples / total, m.tier, m.name);
            }
        }
        for (Method m : hot.subList(0, Math.min(shown, hot.size()))) {
            if (m.samples > 0) {
                annotate(m, byAddress, total, minShare);
            }
        }
    }

    static List<Method> readMethods(Path log) throws IOException {
        List<Method> methods = new ArrayList<>();
        Method cur = null;
        long last = -1;
        try (BufferedReader in = Files.newBufferedReader(log, java.nio.charset.StandardCharsets.ISO_8859_1)) {
            for (String raw; (raw = in.readLine()) != null; ) {
                String line = raw.replace("&apos;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
                Matcher m = COMPILED.matcher(line);
                if (m.find()) {
                    // An on-stack-replacement compilation (of a loop, entered at a bytecode index) says so.
                    cur = new Method(m.group(1), m.group(2) + (m.group(3) != null ? " (OSR" + m.group(3) + ")" : ""));
                    methods.add(cur);
                    last = -1;
                    continue;
                }
                if (cur == null) {
                    continue;
                }
                if ((m = MAIN_CODE.matcher(line)).find()) {
                    cur.start = Long.parseUnsignedLong(m.group(1), 16);
                    cur.end = Long.parseUnsignedLong(m.group(2), 16);
                } else if ((m = ADDRESS.matcher(line)).find()) {
                    long at = Long.parseUnsignedLong(m.group(1), 16);
                    String rest = m.group(2).trim();
                    if (!rest.isEmpty() && HEX.matcher(rest).matches()) {
                        String hex = rest.replace("|", "").replace(" ", "");
                        for (int i = 0; i + 1 < hex.length(); i += 2) {
                            cur.bytes.put(at + i / 2, Integer.parseInt(hex.substring(i, i + 2), 16));
                        }
                    } else {
                        cur.comments.computeIfAbsent(at, a -> new ArrayList<>()).add(rest);
                    }
                    last = at;
                } else if ((m = COMMENT.matcher(line)).find() && last >= 0) {
                    cur.comments.computeIfAbsent(last, a -> new ArrayList<>()).add(m.group(1).trim());
                }
            }
        }
        methods.removeIf(x -> x.start < 0 || x.bytes.isEmpty());
        return methods;
    }

    /** The method's instructions from objdump, each with its samples and the nearest source line recorded before it. */
    static void annotate(Method m, Map<Long, Long> byAddress, long total, double minShare) throws Exception {
        System.out.printf("%n==== %s (%s): %d samples, %.1f%% of the thread%n", m.name, m.tier, m.samples,
                100.0 * m.samples / total);
        byte[] code = new byte[(int) (m.end - m.start)];
        for (int i = 0; i < code.length; i++) {
            code[i] = (byte) (int) m.bytes.getOrDefault(m.start + i, 0);
        }
        Path bin = Files.createTempFile("hot", ".bin");
        Files.write(bin, code);
        Process p = new ProcessBuilder("objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                "--adjust-vma=0x" + Long.toHexString(m.start), bin.toString()).redirectErrorStream(true).start();
        List<String[]> rows = new ArrayList<>(); // address, samples, instruction, source
        String source = "";
        try (BufferedReader in = p.inputReader()) {
            for (String line; (line = in.readLine()) != null; ) {
                Matcher d = OBJDUMP.matcher(line);
                if (!d.find()) {
                    continue;
                }
                long at = Long.parseUnsignedLong(d.group(1), 16);
                int length = d.group(2).length() / 3;
                // A pc descriptor's comment may stand inside the instruction it describes (a call's displacement).
                for (List<String> cs : m.comments.subMap(at, at + length).values()) {
                    for (String c : cs) {
                        Matcher s = SOURCE.matcher(c);
                        if (s.find()) {
                            source = s.group(1).replaceAll(".*\\.", "") + " line " + s.group(3);
                            break; // the innermost frame comes first
                        }
                    }
                }
                long n = byAddress.getOrDefault(at, 0L);
                rows.add(new String[] {Long.toHexString(at), Long.toString(n), d.group(3).trim(), source});
            }
        }
        p.waitFor();
        Files.delete(bin);
        // The JIT records source lines only at calls, safepoints and some implicit null checks: an instruction is
        // placed between the last line recorded before it and the first after it.
        String[] nextSource = new String[rows.size()];
        String next = "the end";
        for (int i = rows.size() - 1; i >= 0; i--) {
            nextSource[i] = next;
            if (i > 0 && !rows.get(i)[3].equals(rows.get(i - 1)[3])) {
                next = rows.get(i)[3];
            }
        }
        for (int i = 0; i < rows.size(); i++) {
            long n = Long.parseLong(rows.get(i)[1]);
            if (n < minShare * m.samples) {
                continue;
            }
            System.out.printf("%n  %d samples (%.0f%% of the method), between %s and %s:%n", n, 100.0 * n / m.samples,
                    rows.get(i)[3].isEmpty() ? "the entry" : rows.get(i)[3], nextSource[i]);
            for (int j = Math.max(0, i - 6); j <= Math.min(rows.size() - 1, i + 1); j++) {
                String[] r = rows.get(j);
                System.out.printf("  %s %6s  %s%n", j == i ? ">" : " ", r[1].equals("0") ? "" : r[1], r[2]);
            }
        }
    }
}

package rocelab.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine;
import rocelab.scenario.Version;

/** The {@code rocelab} executable: a packet-level lab for RoCEv2 and AI backend networks. */
@Command(
        name = "rocelab",
        mixinStandardHelpOptions = true,
        versionProvider = RocelabCommand.VersionProvider.class,
        description = "Packet-level lab for AI backend networks: RoCEv2 and InfiniBand fabrics, driven by AI workloads, simulated packet by packet.")
public final class RocelabCommand implements Runnable {
    /**
     * The subcommands by name, in the order --help lists them. They are not in the annotation: picocli builds the
     * model of every subcommand it is given (reflection over all their options) before it parses anything, about
     * 0.1 s of CPU that a run of one command does not need ({@link #commandLine(String...)} adds only that one).
     */
    static final Map<String, Class<?>> COMMANDS = commands();

    private static Map<String, Class<?>> commands() {
        Map<String, Class<?>> m = new LinkedHashMap<>();
        m.put("run", RunCommand.class);
        m.put("journey", JourneyCommand.class);
        m.put("report", ReportCommand.class);
        m.put("headroom", HeadroomCommand.class);
        m.put("nccl-tests", NcclTestsCommand.class);
        m.put("perftest", PerftestCommand.class);
        m.put("expand", ExpandCommand.class);
        m.put("lint", LintCommand.class);
        m.put("compare", CompareCommand.class);
        m.put("sweep", SweepCommand.class);
        m.put("help", CommandLine.HelpCommand.class);
        return Collections.unmodifiableMap(m);
    }

    /** Exit code for bad input (scenario errors, bad flags). */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit code for an internal error. */
    public static final int EXIT_INTERNAL = 1;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** {@code rocelab} alone: no command was given, a usage error (the usage goes to stderr, exit code 2). */
    @Override
    public void run() {
        spec.commandLine().getErr().println("error: a command is needed, e.g. rocelab run (the built-in demo)");
        spec.commandLine().usage(spec.commandLine().getErr());
        throw new NoCommand();
    }

    /** Thrown when no command was given: {@link #execute} turns it into exit code 2. */
    static final class NoCommand extends RuntimeException {
        NoCommand() {
            super(null, null, false, false);
        }
    }

    public static void main(String[] args) {
        PhaseTimes.mainEntered();
        System.exit(execute(args));
    }

    /** Runs the CLI and returns the exit code (used by tests without exiting the JVM). */
    public static int execute(String... args) {
        return execute(commandLine(args), args);
    }

    /** The command line with every subcommand (for help, completion and tests). */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new RocelabCommand());
        COMMANDS.values().forEach(cli::addSubcommand);
        return cli;
    }

    /**
     * The command line that parses {@code args}: when they start with a subcommand's name, the root with that
     * subcommand alone (what it parses, prints and refuses is the same as with all of them); otherwise (help,
     * --version, a typo that needs the names to suggest, an @file of arguments) every subcommand.
     */
    static CommandLine commandLine(String... args) {
        Class<?> only = args.length > 0 && !"help".equals(args[0]) ? COMMANDS.get(args[0]) : null;
        if (only == null) {
            return commandLine();
        }
        return new CommandLine(new RocelabCommand()).addSubcommand(only);
    }

    /** picocli's word for a value that is not a Java type's: what is wrong and what was expected, in ours. */
    private static final Pattern NOT_A_TYPE = Pattern.compile(
            "Invalid value for (option|positional parameter) '([^']*)': '(.*)' is not an? (int|long|double|float)");

    /**
     * A parse error in the project's words: picocli says "Invalid value for option '--seed': 'abc' is not a long";
     * this says "option '--seed': 'abc' is not a whole number; expected an integer (e.g. 7)".
     */
    static String inPlainWords(String message) {
        Matcher m = NOT_A_TYPE.matcher(message == null ? "" : message);
        if (!m.lookingAt()) {
            return message;
        }
        boolean whole = m.group(4).equals("int") || m.group(4).equals("long");
        return m.group(1) + " '" + m.group(2) + "': '" + m.group(3) + "' is not " + (whole
                ? "a whole number; expected an integer (e.g. 7)" : "a number; expected a number (e.g. 0.5)");
    }

    /** Runs {@code cli} (this command, or a test's variant of it) with the project's error handling. */
    static int execute(CommandLine cli, String... args) {
        cli.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("error: " + inPlainWords(ex.getMessage()));
            // A mistyped command or option (rnu, --sead): name the closest ones.
            if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.getUnmatched().isEmpty()) {
                List<String> close = closest(u.getUnmatched().get(0), u.getCommandLine());
                if (!close.isEmpty()) {
                    ex.getCommandLine().getErr().println("did you mean: " + String.join(" or ", close) + "?");
                }
            }
            ex.getCommandLine().getErr().println("try: " + ex.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help");
            return EXIT_BAD_INPUT;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof NoCommand) {
                return EXIT_BAD_INPUT;
            }
            if (outOfMemory(ex)) { // from another thread (the lint runs beside assembly), wrapped
                commandLine.getErr().println(OUT_OF_MEMORY.get());
                if (parseResult.originalArgs().contains("--debug")) {
                    // Where the heap ran out, for whoever sizes the run's memory (the stack has unwound: room for it).
                    ex.printStackTrace(commandLine.getErr());
                }
                return EXIT_INTERNAL;
            }
            commandLine.getErr().println("internal error: " + ex);
            boolean debug = parseResult.originalArgs().contains("--debug");
            if (debug) {
                ex.printStackTrace(commandLine.getErr());
            } else {
                commandLine.getErr().println("(run again with --debug for the stack trace)");
            }
            return EXIT_INTERNAL;
        });
        try {
            return cli.execute(args);
        } catch (OutOfMemoryError e) {
            // The estimate before the run refuses what clearly cannot fit; this is what slipped past it. The stack
            // has unwound, so the scenario's objects are garbage and there is room for one line.
            cli.getErr().println(OUT_OF_MEMORY.get());
            if (Arrays.asList(args).contains("--debug")) {
                e.printStackTrace(cli.getErr());
            }
            cli.getErr().flush();
            return EXIT_INTERNAL;
        }
    }

    /** The one line printed when the heap ran out. */
    static final Supplier<String> OUT_OF_MEMORY = () -> "error: out of memory: the scenario did"
            + " not fit in this JVM's " + String.format(Locale.ROOT, "%.1f GiB",
                    Runtime.getRuntime().maxMemory() / (double) (1L << 30))
            + " heap; expected a smaller scenario, or a larger heap (ROCELAB_JAVA_OPTS=-Xmx<size> ./rocelab ...)";

    private static boolean outOfMemory(Throwable t) {
        for (int depth = 0; t != null && depth < 8; depth++, t = t.getCause()) {
            if (t instanceof OutOfMemoryError) {
                return true;
            }
        }
        return false;
    }

    /** The commands and options of {@code cli} nearest to a mistyped word: typos, swapped or missing letters. */
    static List<String> closest(String typed, CommandLine cli) {
        String word = typed.contains("=") ? typed.substring(0, typed.indexOf('=')) : typed;
        List<String> candidates = new ArrayList<>(cli.getSubcommands().keySet());
        cli.getCommandSpec().options().forEach(o -> candidates.addAll(List.of(o.names())));
        int best = Math.max(1, word.length() / 3);
        List<String> out = new ArrayList<>();
        for (String c : candidates) {
            int d = editDistance(word, c);
            if (d < best) {
                best = d;
                out.clear();
            }
            if (d == best && !out.contains(c)) {
                out.add(c);
            }
        }
        return out;
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
    private static int editDistance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /** Reports the rocelab version, and the Java running it (the launcher may choose another than the PATH's). */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"rocelab " + Version.CURRENT, "Java " + Runtime.version() + " ("
                    + System.getProperty("java.vm.vendor") + ") in " + System.getProperty("java.home")};
        }
    }
}

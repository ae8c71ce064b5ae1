package rocelab.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code rocelab} executable: a packet-level lab for RoCEv2 and AI backend networks. */
@Command(
        name = "rocelab",
        mixinStandardHelpOptions = true,
        versionProvider = RocelabCommand.VersionProvider.class,
        description = "Packet-level lab for AI backend networks: RoCEv2 and InfiniBand fabrics, driven by AI workloads, simulated packet by packet.",
        subcommands = {RunCommand.class, JourneyCommand.class, ReportCommand.class, HeadroomCommand.class,
            NcclTestsCommand.class, ExpandCommand.class, LintCommand.class, CompareCommand.class, SweepCommand.class,
            CommandLine.HelpCommand.class})
public final class RocelabCommand implements Runnable {
    /** Exit code for bad input (scenario errors, bad flags). */
    public static final int EXIT_BAD_INPUT = 2;
    /** Exit code for an internal error. */
    public static final int EXIT_INTERNAL = 1;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the CLI and returns the exit code (used by tests without exiting the JVM). */
    public static int execute(String... args) {
        CommandLine cli = new CommandLine(new RocelabCommand());
        cli.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("error: " + ex.getMessage());
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
            commandLine.getErr().println("internal error: " + ex);
            boolean debug = parseResult.originalArgs().contains("--debug");
            if (debug) {
                ex.printStackTrace(commandLine.getErr());
            } else {
                commandLine.getErr().println("(run again with --debug for the stack trace)");
            }
            return EXIT_INTERNAL;
        });
        return cli.execute(args);
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

    /** Reports the rocelab version. */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"rocelab " + rocelab.scenario.Version.CURRENT};
        }
    }
}

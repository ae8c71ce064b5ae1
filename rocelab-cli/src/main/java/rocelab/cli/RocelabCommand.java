package rocelab.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code rocelab} executable: a packet-level lab for RoCEv2 and AI backend networks. */
@Command(
        name = "rocelab",
        mixinStandardHelpOptions = true,
        versionProvider = RocelabCommand.VersionProvider.class,
        description = "Packet-level lab for AI backend networks: RoCEv2 and InfiniBand fabrics, driven by AI workloads, simulated packet by packet.",
        subcommands = {RunCommand.class, JourneyCommand.class, ReportCommand.class, HeadroomCommand.class,
            NcclTestsCommand.class, ExpandCommand.class, LintCommand.class, CompareCommand.class,
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
        return execute(new CommandLine(new RocelabCommand()), args);
    }

    /** Runs {@code cli} (this command, or a test's variant of it) with the project's error handling. */
    static int execute(CommandLine cli, String... args) {
        cli.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("error: " + ex.getMessage());
            ex.getCommandLine().getErr().println("try: " + ex.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help");
            return EXIT_BAD_INPUT;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (outOfMemory(ex)) { // from another thread (the lint runs beside assembly), wrapped
                commandLine.getErr().println(OUT_OF_MEMORY.get());
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
            cli.getErr().flush();
            return EXIT_INTERNAL;
        }
    }

    /** The one line printed when the heap ran out. */
    static final java.util.function.Supplier<String> OUT_OF_MEMORY = () -> "error: out of memory: the scenario did"
            + " not fit in this JVM's " + String.format(java.util.Locale.ROOT, "%.1f GiB",
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

    /** Reports the rocelab version. */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"rocelab " + rocelab.scenario.Version.CURRENT};
        }
    }
}

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

    /** Reports the rocelab version. */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"rocelab " + rocelab.scenario.Version.CURRENT};
        }
    }
}

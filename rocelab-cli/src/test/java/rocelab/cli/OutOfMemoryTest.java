package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * An OutOfMemoryError that slips past the estimate before a run is one line on stderr and exit code 1, never a Java
 * stack trace (issue 15 item 9), whether the run's own thread or the lint beside it ran out; with --debug the stack
 * follows the line. The errors are thrown by stand-in commands: a real exhausted heap has no place in a unit test.
 */
class OutOfMemoryTest {
    @CommandLine.Command(name = "exhaust")
    static final class Exhaust implements Callable<Integer> {
        @CommandLine.Option(names = "--debug")
        boolean debug;

        @Override
        public Integer call() {
            throw new OutOfMemoryError("Java heap space");
        }
    }

    @CommandLine.Command(name = "exhaust-beside")
    static final class ExhaustBeside implements Callable<Integer> {
        @CommandLine.Option(names = "--debug")
        boolean debug;

        @Override
        public Integer call() {
            throw new CompletionException(new OutOfMemoryError("Java heap space"));
        }
    }

    private static String[] run(String... command) {
        CommandLine cli = new CommandLine(new RocelabCommand()).addSubcommand(new Exhaust())
                .addSubcommand(new ExhaustBeside());
        StringWriter err = new StringWriter();
        cli.setErr(new PrintWriter(err, true));
        int code = RocelabCommand.execute(cli, command);
        return new String[] {Integer.toString(code), err.toString()};
    }

    @Test
    void shouldPrintOneLineAndExitOneWhenTheHeapRunsOut() {
        for (String command : new String[] {"exhaust", "exhaust-beside"}) {
            String[] r = run(command);
            assertThat(r[0]).isEqualTo("1");
            assertThat(r[1].lines().toList()).as(command).hasSize(1);
            assertThat(r[1]).startsWith("error: out of memory: the scenario did not fit in this JVM's ")
                    .contains("ROCELAB_JAVA_OPTS=-Xmx").doesNotContain("at rocelab").doesNotContain("Exception");
        }
    }

    /** With --debug the line is followed by the error's stack: where the heap ran out. */
    @Test
    void shouldAddTheStackWithDebug() {
        for (String command : new String[] {"exhaust", "exhaust-beside"}) {
            String[] r = run(command, "--debug");
            assertThat(r[0]).isEqualTo("1");
            assertThat(r[1]).startsWith("error: out of memory: the scenario did not fit in this JVM's ")
                    .contains("java.lang.OutOfMemoryError: Java heap space").contains("at rocelab.cli.OutOfMemoryTest");
        }
    }
}

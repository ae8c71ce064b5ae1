package rocelab.scenario.chakra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The shipped chakra-3d traces are exactly what {@link ChakraExample} writes (regenerate them, do not edit them). */
class ChakraExampleTracesTest {
    private static final Path COMMITTED = Path.of("..", "scenarios", "examples", "workloads", "chakra-3d");

    @Test
    void shouldMatchTheGeneratorByteForByte() throws Exception {
        ChakraTraces traces = ChakraExample.traces();
        try (Stream<Path> files = Files.list(COMMITTED)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly("3d.0.et", "3d.1.et", "3d.2.et", "3d.3.et", "3d.4.et", "3d.5.et", "3d.6.et",
                            "3d.7.et");
        }
        for (int r = 0; r < traces.size(); r++) {
            assertThat(Files.readAllBytes(COMMITTED.resolve(ChakraExample.PREFIX + "." + r + ".et")))
                    .as("rank %d's trace; regenerate with ChakraExample's main", r)
                    .isEqualTo(traces.rank(r).bytes());
        }
    }
}

package rocelab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run --threads N}: the same files as one thread, the partitions' counters, the one-thread notes. */
class ThreadsOptionTest {
    private static final String TRAFFIC = """
            name: threads
            seed: 4
            fabric: {mode: roce-lossy, mtu: 1000}
            topology: {kind: leaf-spine, leaves: 3, spines: 2, hosts-per-leaf: 2, link: {rate: 100Gbps, delay: 1us}}
            nic: {cc: dcqcn}
            traffic:
              - {kind: all-to-all, size: 30KB}
            """;

    @TempDir
    Path tmp;

    @Test
    void shouldWriteOneThreadsFilesAndSayHowThePartitionsRan() throws IOException {
        Path scenario = tmp.resolve("t.yaml");
        Files.writeString(scenario, TRAFFIC);
        CliRun one = CliRun.of("run", scenario.toString(), "--out", tmp.resolve("one").toString());
        CliRun two = CliRun.of("run", scenario.toString(), "--out", tmp.resolve("two").toString(), "--threads", "2");
        assertThat(one.exitCode()).isZero();
        assertThat(two.exitCode()).isZero();
        assertThat(one.out()).doesNotContain("parallel ");
        assertThat(two.out()).containsPattern("parallel  2 partitions on 2 threads: [0-9,]+ windows, [0-9,]+ events per"
                + " window, busiest partition [0-9.]+x its share, [0-9,]+ frames crossed");
        assertThat(two.err()).doesNotContain("note:");
        for (String f : new String[] {"flows.csv", "ports.csv", "nics.csv", "rates.csv", "queues.csv", "links.csv"}) {
            assertThat(Files.readAllBytes(tmp.resolve("two").resolve(f))).as(f)
                    .isEqualTo(Files.readAllBytes(tmp.resolve("one").resolve(f)));
        }
    }

    @Test
    void shouldSayOnceWhyACaptureRunsOnOneThread() throws IOException {
        Path scenario = tmp.resolve("t.yaml");
        Files.writeString(scenario, TRAFFIC);
        CliRun r = CliRun.of("run", scenario.toString(), "--out", tmp.resolve("cap").toString(), "--threads", "3",
                "--pcap", tmp.resolve("c.pcap").toString(), "-q");
        assertThat(r.exitCode()).isZero();
        assertThat(r.err().lines().filter(l -> l.startsWith("note: asked for 3 threads, ran on one: --pcap")))
                .hasSize(1);
        assertThat(Files.readString(tmp.resolve("cap").resolve("summary.json"))).contains("\"threads_note\"");
    }

    @Test
    void shouldRefuseZeroThreads() {
        CliRun r = CliRun.of("run", "--out", tmp.resolve("z").toString(), "--threads", "0");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.errorLines()).containsExactly("error: --threads 0; expected 1..1024");
    }
}

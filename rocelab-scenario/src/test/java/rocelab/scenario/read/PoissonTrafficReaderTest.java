package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rocelab.scenario.ScenarioConfig;
import rocelab.workload.traffic.FlowSizeCdf;
import rocelab.workload.traffic.PoissonTraffic;

class PoissonTrafficReaderTest {
    private static final String HEAD = "name: t\nfabric: {mode: roce-lossless}\n"
            + "topology: {kind: leaf-spine, leaves: 2, spines: 1, hosts-per-leaf: 3, link: {rate: 100Gbps},"
            + " uplink: {rate: 400Gbps}}\ntraffic:\n";

    @TempDir
    Path dir;

    private ScenarioConfig read(String item) throws ScenarioException {
        return new ScenarioReader().read(HEAD + "  - " + item + "\n", "t.yaml", dir);
    }

    private String error(String item) {
        Throwable t = catchThrowable(() -> read(item));
        assertThat(t).isInstanceOf(ScenarioException.class);
        return t.getMessage();
    }

    @Test
    void shouldReadABuiltInDistributionAtALoadOfEveryHostsLink() throws Exception {
        PoissonTraffic p = (PoissonTraffic) read("{kind: poisson, sizes: websearch, load: 30%, duration: 2ms,"
                + " start: 10us}").traffic().get(0);
        assertThat(p.sizes()).isSameAs(FlowSizeCdf.WEBSEARCH);
        assertThat(p.load()).isEqualTo(0.3);
        assertThat(p.hosts()).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(p.rateBps()).containsOnly(100_000_000_000L);
        assertThat(p.startPs()).isEqualTo(10_000_000L);
        assertThat(p.durationPs()).isEqualTo(2_000_000_000L);
        PoissonTraffic some = (PoissonTraffic) read("{kind: poisson, sizes: fb-hadoop, load: 0.5, duration: 1ms,"
                + " hosts: \"4,1-2\"}").traffic().get(0);
        assertThat(some.hosts()).containsExactly(1, 2, 4);
    }

    @Test
    void shouldReadACdfFileInTheNs3TrafficGeneratorsForm() throws Exception {
        Files.writeString(dir.resolve("mine.txt"), "# small RPCs\n0 0\n1000 50\n\n64000 100\n");
        PoissonTraffic p = (PoissonTraffic) read("{kind: poisson, sizes-file: mine.txt, load: 0.2, duration: 1ms}")
                .traffic().get(0);
        assertThat(p.sizes().name()).isEqualTo("mine.txt");
        assertThat(p.sizes().meanBytes()).isEqualTo(500 * 0.5 + 32_500 * 0.5);
    }

    @Test
    void shouldSayWhatIsWrongWhereItIs() throws Exception {
        assertThat(error("{kind: poisson, sizes: websurch, load: 0.3, duration: 1ms}")).isEqualTo("t.yaml:5:28:"
                + " 'websurch' is not a built-in flow-size distribution; expected a flow-size distribution: websearch,"
                + " fb-hadoop, alistorage2019 (or sizes-file: the path of a CDF file)");
        assertThat(error("{kind: poisson, sizes: websearch, load: 1.5, duration: 1ms}")).startsWith("t.yaml:5:45:"
                + " load 1.5 is out of range; expected a share of the link rate above 0 and at most 1");
        assertThat(error("{kind: poisson, sizes: websearch, load: 0, duration: 1ms}")).startsWith("t.yaml:5:45:"
                + " load 0 is out of range");
        assertThat(error("{kind: poisson, sizes: websearch, load: lots, duration: 1ms}")).startsWith("t.yaml:5:45:"
                + " load 'lots' is not a number");
        assertThat(error("{kind: poisson, sizes: websearch, load: 0.3, duration: 0us}")).startsWith("t.yaml:5:60:"
                + " duration 0 gives no flows");
        assertThat(error("{kind: poisson, sizes: websearch, load: 0.3}")).startsWith("t.yaml:5:5: missing key"
                + " 'duration'");
        assertThat(error("{kind: poisson, load: 0.3, duration: 1ms}")).startsWith("t.yaml:5:5: missing key 'sizes'");
        assertThat(error("{kind: poisson, sizes: websearch, sizes-file: x.txt, load: 0.3, duration: 1ms}"))
                .startsWith("t.yaml:5:51: both sizes and sizes-file are given");
        assertThat(error("{kind: poisson, sizes: websearch, load: 0.3, duration: 1ms, hosts: 3}"))
                .startsWith("t.yaml:5:72: Poisson traffic needs at least 2 hosts");
        assertThat(error("{kind: poisson, sizes: websearch, load: 0.3, duration: 1ms, rate: 1}"))
                .startsWith("t.yaml:5:65: unknown key 'rate'");
        assertThat(error("{kind: poisson, sizes-file: none.txt, load: 0.3, duration: 1ms}"))
                .startsWith("t.yaml:5:33: file not found: ");
        // Fewer than one flow expected: refused, not an empty run that looks finished.
        assertThat(error("{kind: poisson, sizes: websearch, load: 1e-9, duration: 1ms}")).isEqualTo("t.yaml:5:61:"
                + " 6 hosts at load 1e-9 for 1ms expect 4.38e-08 flows in all (mean size 1,711,250 B); expected at"
                + " least one: a longer duration or a higher load");
        // More flows than a run can hold: said at the duration, with what to change.
        assertThat(error("{kind: poisson, sizes: alistorage2019, load: 1, duration: 1000s}"))
                .startsWith("t.yaml:5:63: the scenario").endsWith("; for Poisson traffic, a shorter duration, a lower"
                        + " load or fewer hosts");
    }

    @Test
    void shouldNameTheCdfFilesLineAndColumn() throws Exception {
        String item = "{kind: poisson, sizes-file: c.txt, load: 0.3, duration: 1ms}";
        Files.writeString(dir.resolve("c.txt"), "0 0\n10 x\n");
        assertThat(error(item)).isEqualTo("c.txt:2:4: percent 'x' is not a number; expected one point per line: a"
                + " size in bytes and the percent of flows at or below it, e.g. '10000 15', from 0 % to 100 %");
        Files.writeString(dir.resolve("c.txt"), "0 0\n10 50\n10 100\n");
        assertThat(error(item)).startsWith("c.txt:3:1: size 10 does not exceed the size before it (10)");
        Files.writeString(dir.resolve("c.txt"), "0 0\n10 50\n20 40\n");
        assertThat(error(item)).startsWith("c.txt:3:4: percent 40 does not exceed the percent before it (50)");
        Files.writeString(dir.resolve("c.txt"), "0 5\n10 100\n");
        assertThat(error(item)).startsWith("c.txt:1:3: the first point is at 5 %; expected the CDF to start at 0 %");
        Files.writeString(dir.resolve("c.txt"), "0 0\n10 50\n");
        assertThat(error(item)).startsWith("c.txt:2:1: the last point is at 50 %; expected the CDF to end at 100 %");
        Files.writeString(dir.resolve("c.txt"), "0 0\n10 50 7\n");
        assertThat(error(item)).startsWith("c.txt:2:7: a third field '7'");
        Files.writeString(dir.resolve("c.txt"), "0 0\n10\n");
        assertThat(error(item)).startsWith("c.txt:2:3: the line has one field");
        Files.writeString(dir.resolve("c.txt"), "0 0\n10 101\n");
        assertThat(error(item)).startsWith("c.txt:2:4: percent 101 is out of range; expected 0..100");
        Files.writeString(dir.resolve("c.txt"), "0 0\n1e30 100\n");
        assertThat(error(item)).startsWith("c.txt:2:1: size 1.0E30 is more than 1 PiB");
        Files.writeString(dir.resolve("c.txt"), "\n# nothing\n");
        assertThat(error(item)).startsWith("c.txt:1:1: the file has no points");
    }
}

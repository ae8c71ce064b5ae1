package rocelab.scenario.read;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Bad jobs are reported at the file, line and column that cause them. */
class JobReaderErrorTest {
    private static final String HEAD = "name: t\nfabric: {mode: roce-lossy}\n"
            + "topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps}}\njobs:\n";

    private static String error(String jobs) {
        Throwable t = org.assertj.core.api.Assertions.catchThrowable(
                () -> new ScenarioReader().read(HEAD + jobs, "t.yaml", Path.of(".")));
        assertThat(t).isInstanceOf(ScenarioException.class);
        return t.getMessage();
    }

    @Test
    void shouldRejectALayoutThatDoesNotFitTheHosts() {
        assertThat(error("  - {hosts: 0-2, parallelism: {dp: 2}, program: [{op: compute, duration: 1us}]}\n"))
                .isEqualTo("t.yaml:5:13: 3 hosts are placed but the parallelism [dp 2] makes 2 ranks; expected one host"
                        + " per rank");
        assertThat(error("  - {hosts: 0-1, parallelism: {dp: 2, xp: 3}, program: [{op: compute, duration: 1us}]}\n"))
                .startsWith("t.yaml:5:39: unknown key 'xp' in parallelism; expected one of: tp, cp, ep, dp, pp");
    }

    @Test
    void shouldNameTheStepThatIsWrong() {
        assertThat(error("  - {hosts: 0-1, parallelism: {dp: 2}, program: [{op: think, duration: 1us}]}\n"))
                .startsWith("t.yaml:5:55: 'think' is not a step op; expected compute, delay, send, recv, or a "
                        + "collective: allreduce");
        assertThat(error("  - {hosts: 0-1, parallelism: {dp: 2}, program: [{op: compute, duration: 1us, after: x}]}\n"))
                .isEqualTo("t.yaml:5:86: no step has the id 'x'; expected the id of a step of this program");
        assertThat(error("  - {hosts: 0-1, parallelism: {pp: 2}, program: [{op: compute, duration: 1us, when: "
                + "\"pp > tp + q\"}]}\n")).isEqualTo("t.yaml:5:96: when 'pp > tp + q': unknown name 'q'; expected one"
                        + " of: CP, DP, EP, PP, TP, cp, dp, ep, pp, tp");
        assertThat(error("  - {hosts: 0-1, parallelism: {dp: 2}, program: [{op: allreduce, group: dp, size: 1MB,"
                + " skew: {zipf: 1}}]}\n")).isEqualTo("t.yaml:5:94: only an alltoallv step takes a skew; expected op:"
                        + " alltoallv");
        assertThat(error("  - {hosts: 0-1, parallelism: {pp: 2}, program: [{op: allreduce, group: dp}]}\n"))
                .startsWith("t.yaml:5:50: missing key 'size-total' in a allreduce step");
        assertThat(error("  - {hosts: 0-1, parallelism: {pp: 2}, program: [{op: allreduce, group: pp, size: 1MB,"
                + " members: \"pp == q\"}]}\n")).contains("members 'pp == q': unknown name 'q'");
    }

    @Test
    void shouldRejectAStepIdThatIsNotAWord() {
        assertThat(error("  - {hosts: 0-1, parallelism: {dp: 2}, program: [{id: \"a\\nb\", op: compute,"
                + " duration: 1us}]}\n")).isEqualTo("t.yaml:5:55: 'a\\nb' is not a valid name; expected a step id or"
                        + " stream name: letters, digits, '.', '_' and '-' (e.g. grads)");
        assertThat(error("  - {hosts: 0-1, parallelism: {dp: 2}, program: [{op: compute, stream: \"x,y\","
                + " duration: 1us}]}\n")).startsWith("t.yaml:5:");
    }

    @Test
    void shouldReportProgramsThatCannotRun() {
        assertThat(error("  - {hosts: 0-1, parallelism: {pp: 2}, program: [{id: tx, op: send, peer: pp+1, size: 1MB,"
                + " when: \"pp == 0\"}]}\n")).isEqualTo("t.yaml:5:50: rank 0's send in step 'tx' has no matching"
                        + " receive on its peer; expected a recv step on the peer rank");
        assertThat(error("  - {hosts: 0-1, parallelism: {pp: 2}, program: [{op: recv, peer: \"pp\"}]}\n"))
                .isEqualTo("t.yaml:5:50: rank 0 would receive from itself; expected a peer that differs in at least"
                        + " one coordinate");
        String deadlock = "  - {name: dl, hosts: 0-1, parallelism: {pp: 2}, program: [{op: recv, peer: {pp: 1 - pp}},"
                + " {op: send, peer: {pp: 1 - pp}, size: 1KB}]}\n";
        assertThat(error(deadlock)).startsWith("t.yaml:5:5: job 'dl' waits on itself: ");
        assertThat(error("  - {hosts: 0-1, parallelism: {dp: 2}, program: [], generator: {type: megatron}}\n"))
                .startsWith("t.yaml:5:5: job 'job1' needs exactly one of program, generator, simai and chakra");
    }

    @Test
    void shouldAcceptJobsWithoutTraffic() throws Exception {
        var c = new ScenarioReader().read(HEAD + "  - {hosts: 0-3, parallelism: {tp: 2, dp: 2}, program: "
                + "[{op: allgather, group: tp, size-per-rank: 1MB}]}\n", "t.yaml", Path.of("."));
        assertThat(c.jobs()).hasSize(1);
        assertThat(c.traffic()).isEmpty();
    }
}

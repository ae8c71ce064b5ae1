package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.flow.FlowRecord;
import rocelab.scenario.read.ScenarioException;
import rocelab.scenario.read.ScenarioReader;

/**
 * {@code nic.ack}: an RNIC's ACKs in a class of their own. A short flow h0 -> h1 whose ACK must come back through
 * the switch port towards h0, where a 2:1 incast into h0 keeps a queue: in the QP's class the ACK waits behind the
 * incast's data and the flow takes many times its closed form; filed by the switches in the strict CNP class (DSCP
 * 48) it does not wait; on another RNIC priority but the data's DSCP (the ns-3 RDMA model's ACK_HIGH_PRIO, which
 * changes only the host's side) it waits at the switch as before.
 */
class AckQosTest {
    private static String scenario(String nic, String nics) {
        return """
                name: ack-qos
                fabric: {mode: roce-lossless, mtu: 1000}
                topology: {kind: single-switch, hosts: 4, link: {rate: 100Gbps, delay: 1us}}
                nic: %s
                %s
                traffic:
                  - {kind: incast, senders: [2, 3], receiver: 0, size: 4MB}
                  - {kind: flow, src: 0, dst: 1, size: 1000B, start: 100us}
                """.formatted(nic, nics);
    }

    private static FlowRecord shortFlow(String yaml) {
        RunResult r = Simulation.assemble(Scenarios.parse(yaml)).run(ProgressListener.NONE);
        assertThat(r.stopReason()).isEqualTo("completed");
        assertThat(r.totals().packetsDropped()).isZero();
        return r.flows().get(2);
    }

    @Test
    void shouldLetAnAckSkipTheDataQueueOnItsWayBackOnlyInAClassOfItsOwn() {
        FlowRecord inClass = shortFlow(scenario("{cc: none}", ""));
        FlowRecord own = shortFlow(scenario("{cc: none, ack: {dscp: 48, priority: 6}}", ""));
        // The incast's queue towards h0 after 100 us at 2:1: about 1.2 MB, some 100 us at 100 Gb/s.
        assertThat(inClass.fctPs()).isGreaterThan(50_000_000L);
        // Its own class: one frame each way and the store-and-forward hops, within 10 % of its closed form.
        assertThat((double) own.fctPs() / own.idealFctPs()).isLessThan(1.1);
        FlowRecord hostSideOnly = shortFlow(scenario("{cc: none, ack: {dscp: 26, priority: 6}}", ""));
        assertThat(hostSideOnly.fctPs()).isEqualTo(inClass.fctPs());
        // The responder's setting counts: h1 sends the ACKs, so h1's own ack class is enough, and h0's is not.
        FlowRecord responder = shortFlow(scenario("{cc: none}", "nics:\n  - {hosts: 1, ack: {dscp: 48, priority: 6}}"));
        FlowRecord requester = shortFlow(scenario("{cc: none}", "nics:\n  - {hosts: 0, ack: {dscp: 48, priority: 6}}"));
        assertThat(responder.fctPs()).isEqualTo(own.fctPs());
        assertThat(requester.fctPs()).isEqualTo(inClass.fctPs());
    }

    @Test
    void shouldRefuseAnAckClassHalfGivenOrOnInfiniband() {
        Throwable half = catchThrowable(() -> new ScenarioReader().read(scenario("{ack: {dscp: 48}}", ""), "t.yaml",
                Path.of(".")));
        assertThat(half).isInstanceOf(ScenarioException.class).hasMessageStartingWith("t.yaml:4:")
                .hasMessageContaining("missing key 'priority'");
        String ib = scenario("{ack: {dscp: 48, priority: 6}}", "").replace("roce-lossless", "infiniband");
        Throwable onIb = catchThrowable(() -> new ScenarioReader().read(ib, "t.yaml", Path.of(".")));
        assertThat(onIb).isInstanceOf(ScenarioException.class).hasMessage("t.yaml:4:7: nic.ack sets the DSCP and"
                + " priority of RoCEv2 ACKs; expected no ack in infiniband mode, where an ACK travels on its QP's"
                + " service level");
    }
}

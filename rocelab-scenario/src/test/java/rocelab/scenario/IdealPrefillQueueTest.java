package rocelab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import rocelab.observe.RunResult;
import rocelab.observe.inference.CallRecord;

/**
 * A request's first LLM call on a tensor-parallel prefill instance: every rank enters after the same ingress message,
 * and the call's prefill starts when they all have. The ideal network (--ideal) queued it behind that message once
 * per rank (256.700 us at TP 4, three more times its 85.567 us), as if it were four messages into one port: the join
 * listed it four times. It starts when the message is in.
 */
class IdealPrefillQueueTest {
    private static final String TP4 = """
            name: tp4
            fabric: {mode: roce-lossless, mtu: 4096}
            topology: {kind: single-switch, hosts: 9, link: {rate: 100Gbps, delay: 1us}}
            switch: {pfc: {watchdog: {}}}
            nic: {cc: none}
            inference:
              - name: svc
                model: {layers: 2, hidden: 1024, heads: 8, kv-heads: 8, head-dim: 128, dtype-bytes: 2}
                instances:
                  - {role: prefill, tp: 4, hosts: 0-3}
                  - {role: decode, tp: 4, hosts: 4-7}
                cost: {prefill-per-token: 10us, decode-step: 100us}
                gateway: 8
                arrivals: {process: poisson, rate: 100/s, count: 1}
                request:
                  ingress: 1MiB
                  steps:
                    - llm: {prompt-tokens: 512, output-tokens: 2}
            """;

    @Test
    void shouldNotQueueAFirstPrefillBehindItsOwnIngressOncePerRank() {
        for (Simulation.Model model : Simulation.Model.values()) {
            RunResult r = Simulation.assemble(Scenarios.parse(TP4), model).run(ProgressListener.NONE);
            CallRecord call = r.llmCalls().get(0);
            assertThat(call.queuePs()).as("%s", model).isZero();
        }
    }
}

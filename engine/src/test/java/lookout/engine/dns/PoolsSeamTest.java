package lookout.engine.dns;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import lookout.engine.api.Engine;
import lookout.engine.api.EngineOptions;
import lookout.engine.testing.VirtualScheduler;
import lookout.engine.config.ConfigLoader;
import lookout.engine.config.ConfigResult;
import lookout.engine.core.DefaultEngine;
import lookout.engine.dns.wire.Message;
import lookout.engine.dns.wire.RrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import lookout.engine.boot.Engines;

/**
 * DYNA/DYNC answered by the real pools service through {@code DynamicRecords}, from a
 * configuration parsed by the real loader (zones inline, gdnsd weighted stanza).
 */
class PoolsSeamTest {

    @TempDir
    Path tmp;

    static final String CONF = """
            resolver => {
              listen => [ 127.0.0.1:0 ]
              allow => [ 127.0.0.0/8 ]
            }
            zones => {
              pool.test => { text => "
            $TTL 300
            @      SOA  ns1 hostmaster 1 7200 1800 604800 300
            @      NS   ns1
            ns1    A    127.0.0.1
            www    300  DYNA weighted!web
            app    300/60 DYNC weighted!alias
            " }
            }
            plugins => {
              weighted => {
                service_types => up
                web => {
                  a1 = [ 192.0.2.1, 10 ]
                  a2 = [ 192.0.2.2, 10 ]
                }
                alias => {
                  c1 = [ target.example.net., 1 ]
                }
              }
            }
            pva => { addr_list => [ 127.0.0.1 ], auto_addr_list => false, beacon_addr_list => [ 127.0.0.1 ],
                     auto_beacon_addr_list => false, server => { enable => false, name_server => false } }
            """;

    @Test
    void dynaAndDyncComeFromThePools() throws Exception {
        ConfigResult r = new ConfigLoader(Map.of()).parse(CONF, "seam.conf", tmp);
        assertThat(r.problems()).isEmpty();
        try (VirtualScheduler clock = new VirtualScheduler()) {
            Engine engine = Engines.create(EngineOptions.forTest(clock, new Random(5), tmp));
            engine.start(r.config());
            try {
                ResolverService svc = clock.call(() -> ((DefaultEngine) engine).runningService(ResolverService.class));
                try (DnsTestClient c = new DnsTestClient(svc.boundAddresses().get(0))) {
                    Message a = c.ask("www.pool.test.", RrType.A);
                    assertThat(a.rcode()).isEqualTo(RrType.NOERROR);
                    assertThat((a.flags & Message.AA) != 0).isTrue();
                    assertThat(a.answer).isNotEmpty().allSatisfy(rr -> {
                        assertThat(rr.type()).isEqualTo(RrType.A);
                        assertThat(rr.rdata()[0]).isEqualTo((byte) 192);
                    });
                    Message aaaa = c.ask("www.pool.test.", RrType.AAAA);
                    assertThat(aaaa.rcode()).isEqualTo(RrType.NOERROR);
                    assertThat(aaaa.answer).isEmpty();
                    assertThat(aaaa.authority).extracting(rr -> rr.type()).containsExactly(RrType.SOA);
                    Message cn = c.ask("app.pool.test.", RrType.A);
                    assertThat(cn.answer).singleElement().satisfies(rr -> {
                        assertThat(rr.type()).isEqualTo(RrType.CNAME);
                        assertThat(Message.nameAt(rr.rdata(), 0)).isEqualTo("target.example.net.");
                    });
                }
            } finally {
                engine.stop();
            }
        }
    }

    @Test
    void unknownResourceIsAConfigurationErrorAtItsZonePosition() {
        ConfigResult r = new ConfigLoader(Map.of()).parse(CONF.replace("weighted!web", "weighted!nosuch"), "seam.conf", tmp);
        assertThat(r.ok()).isFalse();
        assertThat(r.problems()).anySatisfy(p -> {
            assertThat(p.toString()).startsWith("seam.conf:").contains("nosuch");
            assertThat(p.line()).isEqualTo(11); // the www line: text starts on line 6
            assertThat(p.column()).isEqualTo(18);
        });
    }
}

package lookout.engine.weighted;

import java.util.Map;
import lookout.engine.config.ConfigProblems;
import lookout.engine.config.ServiceTypeConfig;
import lookout.engine.config.WeightedConfig;
import lookout.engine.config.vscf.VNode;
import lookout.engine.config.vscf.VscfParser;
import lookout.engine.config.vscf.VscfSyntaxException;

/** Seed 001's SYNOPSIS configuration, verbatim, plus the service types it names. */
public final class Synopsis {

    public static final String SERVICE_TYPES = """
            service_types => {
              web_check => { plugin => http_status, port => 80, url_path => /health, interval => 10 }
              foo => { plugin => tcp_connect, port => 8080 }
              my_cn_check => { plugin => static, state => up, ttl => 120 }
            }
            """;

    public static final String WEIGHTED = """
            plugins => {
              weighted => {
                multi = false # default
                service_types = up
                up_thresh => 0.5 # default
                corpwww => {
                  lb01 = [ lb01.example.org., 99 ]
                  lb02 = [ lb02.example.org., 15 ]
                  lb03 = [ lb03.example.org., 1 ]
                }
                frontwww6 => {
                  service_types = up
                  multi = true
                  wwwhost01 = [ 2001:db8::123, 4 ]
                  wwwhost02 = [ 2001:db8::456, 1 ]
                  wwwhost03 = [ 2001:db8::789, 2 ]
                }
                pubwww => {
                  service_types = [ web_check, foo ]
                  up_thresh => 0.01,
                  pubhost01 = [ 192.0.2.1, 44 ]
                  pubhost02 = [ 192.0.2.2, 11 ]
                  pubhost03 = [ 192.0.2.3, 11 ]
                  pubhost04 = [ 192.0.2.4, 11 ]
                }
                cdnwww => {
                  service_types = web_check
                  datacenter1 => {
                    d1-lb1 = [ 127.0.0.1, 2 ]
                    d1-lb2 = [ 127.0.0.2, 2 ]
                  }
                  datacenter2 => {
                    d2-lb1 = [ 127.0.0.3, 2 ]
                    d2-lb2 = [ 127.0.0.4, 2 ]
                    d2-lb3 = [ 127.0.0.5, 1 ]
                  }
                }
                mixed => {
                  multi => false,
                  addrs_v4 => {
                    lb1 = [ 127.0.0.3, 2 ]
                    lb2 = [ 127.0.0.4, 2 ]
                  }
                  addrs_v6 => {
                    multi => true
                    www6set1 = {
                      lb01 => [ 2001:db8::123, 4 ]
                      lb02 => [ 2001:db8::456, 1 ]
                    }
                    www6set2 => {
                      lb01 => [ 2001:db8::789, 4 ]
                      lb02 => [ 2001:db8::ABC, 1 ]
                    }
                  }
                }
                cn => {
                  service_types = my_cn_check
                  foo = [ lb01.example.org., 99 ]
                  bar = [ lb02.example.org., 15 ]
                }
              }
            }
            """;

    private Synopsis() {
    }

    public static VNode.Hash parse(String text) {
        try {
            return VscfParser.parse(text, "test.conf");
        } catch (VscfSyntaxException e) {
            throw new IllegalArgumentException(e);
        }
    }

    public static Map<String, ServiceTypeConfig> serviceTypes(String text, ConfigProblems problems) {
        return ServiceTypeConfig.bindAll((VNode.Hash) parse(text).get("service_types"), problems);
    }

    /** Binds {@code weighted} text (a whole {@code plugins => { weighted => ... }}) with {@code types}. */
    public static WeightedConfig bind(String weighted, String types, ConfigProblems problems) {
        Map<String, ServiceTypeConfig> st = serviceTypes(types, problems);
        VNode.Hash plugins = (VNode.Hash) parse(weighted).get("plugins");
        return WeightedConfig.bind((VNode.Hash) plugins.get("weighted"), st, problems);
    }

    public static WeightedConfig synopsis() {
        ConfigProblems p = new ConfigProblems();
        WeightedConfig c = bind(WEIGHTED, SERVICE_TYPES, p);
        if (!p.isEmpty()) {
            throw new IllegalStateException(p.list().toString());
        }
        return c;
    }
}

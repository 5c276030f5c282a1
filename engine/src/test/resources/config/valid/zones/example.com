$TTL 300
@    SOA ns1 hostmaster 1 7200 1800 604800 300
@    NS  ns1
ns1  A   192.0.2.10
www  300 DYNA weighted!pubwww

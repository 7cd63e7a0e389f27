"""Numbers written with a unit: ``32g``, ``48-port``, ``$2,349/mo`` (SPEC §9.2).

Only tails on the list are units. Any other tail makes the token an
identifier, so a reservation code such as ``4XGCCM`` is examined.
"""

from __future__ import annotations

import re

UNITS = frozenset(
    """
    k m g t s h x p l
    kb mb gb tb pb eb kib mib gib tib pib ki mi gi ti pi bit bits byte bytes kbit mbit gbit
    kbyte kbytes mbyte mbytes gbyte gbytes
    bps kbps mbps gbps tbps iops pps fps rps qps tps ops hz khz mhz ghz rpm
    ns us ms sec secs second seconds min mins minute minutes hr hrs hour hours day days wk wks
    week weeks mo mos mth mths month months yr yrs year years am pm
    mm cm km in inch inches ft feet foot yd yds mile miles nm
    mg kg lb lbs oz ozs ton tons tonne tonnes gram grams
    ml cl dl gal gals liter liters litre litres qt
    mah wh kwh mwh kw mw va kva volt volts watt watts amp amps
    px dpi ppi mp
    st nd rd th
    pc pcs pk pack packs piece pieces item items unit units set sets port ports core cores cpu
    cpus vcpu vcpus gpu gpus node nodes thread threads seat seats user users person persons
    people pax guest guests adult adults night nights star stars bag bags box boxes bed beds
    bedroom bedrooms bath baths room rooms door doors cyl speed ply way pt pts point points stop
    stops leg legs hop hops step steps stage stages tier tiers level levels page pages line lines
    word words digit digits char chars letter letters time times slot slots lane lanes channel
    channels phase phases floor floors story stories car cars member members
    bn mn mil degree degrees percent factor pct bp
    usd eur gbp jpy cad aud chf cny inr nzd sek nok dkk mxn brl krw sgd hkd
    """.split()
)

_WITH_TAIL = re.compile(
    r"(?P<number>[-+]?(?:\d{1,3}(?:,\d{3})+|\d{1,2}(?:,\d{2})*,\d{3}|\d+)(?:\.\d+)?)"
    r"(?P<joiner>[-/]?)(?P<unit>[^\W\d_]+)(?:/(?P<second>[^\W\d_]+))?"
)


def split_unit(value: str) -> str | None:
    """The number part of a normalised number with a unit, or None.

    >>> [split_unit(v) for v in ["32g", "48-port", "2,349/mo", "100mb/s", "4xgccm", "5862-k", "2048/h"]]
    ['32', '48', '2,349', '100', None, None, '2048']
    """
    last = value[-1:]
    if not last.isalnum() or last.isdecimal():
        return None  # a unit ends with a letter ([^\W\d_]): told at once for dates, addresses and ids
    match = _WITH_TAIL.fullmatch(value)
    if match is None:
        return None
    unit = match.group("unit")
    if unit not in UNITS:
        return None
    if len(unit) == 1 and match.group("joiner") == "-":
        return None  # "5862-K" is a bay id, not a number of kelvins
    second = match.group("second")
    if second is not None and second not in UNITS:
        return None
    return match.group("number")

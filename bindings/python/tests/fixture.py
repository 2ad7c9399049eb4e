"""What the Python test modules share: every algorithm, a search of one by
name (parallel ones on 2 threads unless told), and the "every algorithm on
this game" check against a reference value, one subtest per algorithm."""
import gts

ALGORITHMS = gts.algorithms()


def run(game, alg, **kw):
    """gts.search with @alg (an Algorithm); a parallel one on 2 threads
    unless @kw says otherwise."""
    if alg.parallel:
        kw.setdefault("threads", 2)
    return gts.search(game, alg.name, **kw)


def every_algorithm(test, game, depth, ref, /, check=None, **labels):
    """Each algorithm searches @game to @depth in a subtest (labelled by the
    algorithm and @labels): an exact one returns @ref; @check(result), if
    given, runs for every algorithm."""
    for alg in ALGORITHMS:
        with test.subTest(alg=alg.name, **labels):
            r = run(game, alg, depth=depth)
            if alg.exact:
                test.assertEqual(r.score, ref)
            if check is not None:
                check(r)

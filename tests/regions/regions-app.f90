! The Fortran program of tests/e2e/t1102-regions-fortran-python.sh:
! region "a" does three times the iterations of region "b", 10 times,
! and "b" holds a nested "b.inner".
program regions_app
  use tdperf
  implicit none
  integer :: i

  do i = 1, 10
    call tdperf_region_begin("a")
    call work(3000000)
    call tdperf_region_end("a")
    call tdperf_region_begin("b")
    call work(500000)
    call tdperf_region_begin("b.inner")
    call work(500000)
    call tdperf_region_end("b.inner")
    call tdperf_region_end("b")
  end do
contains
  subroutine work(n)
    integer, intent(in) :: n
    integer :: k
    double precision, save :: s = 1d0

    do k = 1, n
      s = s * 1.0000001d0 + 0.5d0
    end do
    if (s < 0) print *, s
  end subroutine
end program
